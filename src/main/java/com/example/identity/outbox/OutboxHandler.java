package com.example.identity.outbox;

/**
 * Delivers the messages of one kind (a Spring bean; {@link #kind()} unique). Called by the outbox's dispatcher on its
 * own thread, never on a request's, at least once per message: a delivery may be repeated (an instance stopped after
 * delivering and before recording it), so the receiving side must tolerate duplicates.
 */
public interface OutboxHandler {

    /** The kind this handler delivers, as given to {@link Outbox#enqueue}; at most 50 characters. */
    String kind();

    /**
     * Delivers {@code message}. Returning normally means delivered: the message is deleted. Throwing means try again
     * later, with back-off, until {@code identity.outbox.give-up-after}; the exception's class name (never its
     * message, which may hold what was sent) is kept as the message's {@code last_error}.
     */
    void deliver(OutboxMessage message) throws Exception;
}
