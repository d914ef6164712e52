package com.example.identity.outbox;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.outbox.*} (docs/operations.md, "The outbox").
 *
 * @param pollInterval how often each instance looks for due messages (default 1s)
 * @param lease how long a claimed message belongs to the instance that claimed it; after that another instance
 *     may take it (an instance that stopped mid-delivery). At least twice a handler's longest delivery
 *     ({@link OutboxHandler#longestDelivery}, the outbound timeout: 10 s), or the start fails (default 60s)
 * @param firstRetry the wait after the first failure, doubled after each further one (default 10s)
 * @param maxRetry the longest wait between two attempts (default 1h)
 * @param giveUpAfter how long after its creation a message that still fails is dropped, with a warning
 *     (default 24h)
 * @param batchSize how many due messages an instance claims per poll, at most (default 20)
 * @param concurrency how many deliveries an instance runs at the same time, each on a thread of its own: receivers
 *     that are slow or never answer hold one each, until the outbound timeout, and the others go on (default 16)
 * @param perReceiver how many of those may be for the same receiver (an application's webhook or logout URI), so
 *     that one slow receiver with many messages never takes every thread (default 4, at most {@code concurrency})
 */
@ConfigurationProperties("identity.outbox")
public record OutboxSettings(@DefaultValue("1s") Duration pollInterval, @DefaultValue("60s") Duration lease,
        @DefaultValue("10s") Duration firstRetry, @DefaultValue("1h") Duration maxRetry,
        @DefaultValue("24h") Duration giveUpAfter, @DefaultValue("20") int batchSize,
        @DefaultValue("16") int concurrency, @DefaultValue("4") int perReceiver) {

    public OutboxSettings {
        if (batchSize < 1 || concurrency < 1 || concurrency > 200 || perReceiver < 1) {
            throw new IllegalArgumentException("identity.outbox.batch-size and per-receiver must be at least 1, "
                    + "identity.outbox.concurrency between 1 and 200");
        }
        perReceiver = Math.min(perReceiver, concurrency);
    }

    /** The wait before attempt {@code attempts + 1}, after {@code attempts} failures (1 or more). */
    Duration backOff(int attempts) {
        Duration wait = firstRetry;
        for (int i = 1; i < attempts && wait.compareTo(maxRetry) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(maxRetry) > 0 ? maxRetry : wait;
    }
}
