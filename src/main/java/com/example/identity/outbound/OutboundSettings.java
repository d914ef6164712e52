package com.example.identity.outbound;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.outbound.*}: the requests this service sends to addresses applications registered (webhooks,
 * back-channel logout tokens; docs/operations.md, docs/security.md).
 *
 * @param timeout how long one delivery may take as a whole, the name's lookup, the connection, TLS, sending and the
 *     answer's headers included; at that moment the connection is cut (default 10s; the outbox's lease must be at
 *     least twice as long)
 * @param allowLoopback whether this machine's own addresses (localhost, 127.0.0.0/8, ::1) may be a receiver, at
 *     registration and at delivery: for tests and local development only (default false). The private, link-local,
 *     shared and reserved ranges are refused whatever it says.
 */
@ConfigurationProperties("identity.outbound")
public record OutboundSettings(@DefaultValue("10s") Duration timeout, @DefaultValue("false") boolean allowLoopback) {

    public OutboundSettings {
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException("identity.outbound.timeout must be between 1 ms and 5 minutes");
        }
    }
}
