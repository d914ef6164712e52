package com.example.identity.outbox;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.outbox.*} (docs/operations.md, "The outbox").
 *
 * @param pollInterval how often each instance looks for due messages (default 1s)
 * @param lease how long a claimed message belongs to the instance that claimed it; after that another instance
 *     may take it (an instance that stopped mid-delivery), so keep it above a handler's longest delivery
 *     (default 60s)
 * @param firstRetry the wait after the first failure, doubled after each further one (default 10s)
 * @param maxRetry the longest wait between two attempts (default 1h)
 * @param giveUpAfter how long after its creation a message that still fails is dropped, with a warning
 *     (default 24h)
 * @param batchSize how many due messages an instance claims per poll (default 20)
 */
@ConfigurationProperties("identity.outbox")
public record OutboxSettings(@DefaultValue("1s") Duration pollInterval, @DefaultValue("60s") Duration lease,
        @DefaultValue("10s") Duration firstRetry, @DefaultValue("1h") Duration maxRetry,
        @DefaultValue("24h") Duration giveUpAfter, @DefaultValue("20") int batchSize) {

    /** The wait before attempt {@code attempts + 1}, after {@code attempts} failures (1 or more). */
    Duration backOff(int attempts) {
        Duration wait = firstRetry;
        for (int i = 1; i < attempts && wait.compareTo(maxRetry) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(maxRetry) > 0 ? maxRetry : wait;
    }
}
