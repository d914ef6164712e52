package com.example.identity.minors;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code identity.minors.*} (decisions §27).
 *
 * @param consentAge the age from which a person consents to the processing of their data themselves; under it the
 *     sign-up asks a parent's address and the account waits for the parent's consent. Default 14, Spain's (LOPDGDD
 *     art. 7); GDPR art. 8 lets each country choose between 13 and 16, the bounds taken here: any other value stops
 *     the start with the property's name.
 */
@Validated
@ConfigurationProperties("identity.minors")
public record MinorSettings(@Min(13) @Max(16) @DefaultValue("14") int consentAge) {
}
