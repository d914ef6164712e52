package com.example.identity.outbox;

import java.time.Instant;

/**
 * One message being delivered: its {@code kind} (which {@link OutboxHandler} delivers it), its {@code key} (messages
 * of one key are delivered one at a time, in the order they were enqueued), the {@code payload} as enqueued, the
 * number of this attempt (1 for the first) and when it was enqueued.
 */
public record OutboxMessage(long id, String kind, String key, String payload, int attempt, Instant createdAt) {
}
