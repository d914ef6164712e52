package com.example.identity.outbox;

import java.time.Duration;

/**
 * Delivers the messages of one kind (a Spring bean; {@link #kind()} unique). Called by the outbox's dispatcher on its
 * own threads, never on a request's, at least once per message: a delivery may be repeated (an instance stopped after
 * delivering and before recording it), so the receiving side must tolerate duplicates. Several messages (of different
 * keys) are delivered at the same time, on different threads.
 */
public interface OutboxHandler {

    /** The kind this handler delivers, as given to {@link Outbox#enqueue}; at most 50 characters. */
    String kind();

    /**
     * Delivers {@code message}. Returning normally means delivered: the message is deleted. Throwing means try again
     * later, with back-off, until {@code identity.outbox.give-up-after}; the exception's class name (never its
     * message, which may hold what was sent) is kept as the message's {@code last_error}. It must return or throw
     * within {@link #longestDelivery()}.
     */
    void deliver(OutboxMessage message) throws Exception;

    /**
     * The longest {@link #deliver} may take, a bound the handler enforces (a deadline on its request); the lease must
     * be at least twice as long, so that no other instance takes a message still being delivered.
     */
    Duration longestDelivery();

    /**
     * Who receives {@code message}: at most {@code identity.outbox.per-receiver} messages of one receiver are delivered
     * at the same time on an instance. By default each key is its own receiver.
     */
    default String receiver(OutboxMessage message) {
        return message.key();
    }
}
