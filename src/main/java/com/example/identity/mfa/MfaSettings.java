package com.example.identity.mfa;

import java.time.Duration;
import java.util.Set;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code identity.mfa.*} (decisions §17).
 *
 * @param requiredRoles roles ({@code user}, {@code developer_api}, {@code admin}) whose accounts must use a
 *     second factor: at their next login they set one up before anything else, and they cannot turn it off.
 *     Default none (the embedded default's demo accounts log in with a password alone); in production
 *     {@code admin,developer_api} is recommended: those accounts hold everyone's applications. Any other
 *     value stops the start, naming it: a misspelt role would otherwise require nothing, silently.
 * @param recentLogin how recent the session's login (or the password typed again at {@code /cuenta/seguridad})
 *     must be to add a passkey ({@link RecentLogin}); default 10 minutes, 1 second to 1 hour
 */
@Validated
@ConfigurationProperties("identity.mfa")
public record MfaSettings(
        @NotNull @DefaultValue Set<@NotNull @Pattern(regexp = ROLES, message = ROLES_MESSAGE) String> requiredRoles,
        @NotNull @DurationMin(seconds = 1, message = "must be between 1s and 1h")
        @DurationMax(hours = 1, message = "must be between 1s and 1h") @DefaultValue("10m") Duration recentLogin) {

    /** Every {@code rol} value of account/Role, exactly (MfaSettingsTest keeps the two in step). */
    static final String ROLES = "user|developer_api|admin";
    static final String ROLES_MESSAGE = "must be a role: user, developer_api or admin (such as admin,developer_api)";

    public boolean requiredFor(String role) {
        return requiredRoles.contains(role);
    }
}
