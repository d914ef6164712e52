package com.example.identity.oauth.token;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code identity.tickets.*} (decisions §25, docs/game-servers.md).
 *
 * @param ttl how long a ticket for a game server is valid ({@code exp - iat}, the answer's {@code expires_in});
 *     default 60 seconds, 1 second to 300 seconds. A ticket is a bearer credential for one server: the shorter,
 *     the less a stolen one is worth and the fewer {@code jti}s a server keeps; a longer one only helps a game
 *     whose players take long to reach the server after asking. Beyond 300 seconds the start stops, naming the
 *     property.
 */
@Validated
@ConfigurationProperties("identity.tickets")
public record TicketSettings(
        @NotNull @DurationMin(seconds = 1, message = TTL_MESSAGE) @DurationMax(seconds = 300, message = TTL_MESSAGE)
        @DefaultValue("60s") Duration ttl) {

    static final String TTL_MESSAGE = "must be between 1s and 300s (decisions §25: a ticket lives at most 5 minutes)";
}
