package com.example.identity.sanctions;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code identity.sanctions.*} (decisions §26, docs/sanctions.md).
 *
 * @param endCheck how often one instance looks for sanctions whose {@code hasta} has passed, to tell the applications
 *     ({@code usuario.sancion_levantada}) and write the audit line ({@link SanctionEnds}); default 30 seconds, 1 second
 *     to 1 hour. The sanction itself ends at its {@code hasta} whatever this is: every check compares the time.
 */
@Validated
@ConfigurationProperties("identity.sanctions")
public record SanctionSettings(
        @NotNull @DurationMin(seconds = 1, message = END_CHECK) @DurationMax(hours = 1, message = END_CHECK)
        @DefaultValue("30s") Duration endCheck) {

    static final String END_CHECK = "must be between 1s and 1h";
}
