package com.example.identity.guestaccount;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code identity.guests.*} (decisions §24).
 *
 * @param perAddressHour guests one client address may have made at {@code /oauth/invitado.php} in an hour; the next
 *     one is answered 429 with {@code Retry-After}. Default 10: a household behind one address starts a few games,
 *     a script cannot fill the users table. Counted on every instance (abuse/RateLimits).
 * @param maxIdle a guest whose tokens were not issued for this long (no game start, no refresh) is deleted by the
 *     retention job, as decisions §20 deletes an account; default 90 days, at least a day
 */
@Validated
@ConfigurationProperties("identity.guests")
public record GuestSettings(
        @Min(1) @DefaultValue("10") int perAddressHour,
        @NotNull @DurationMin(days = 1) @DefaultValue("90d") Duration maxIdle) {
}
