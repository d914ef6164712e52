package com.example.identity.outbox;

import java.sql.Timestamp;
import java.time.Clock;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * A durable queue of messages to deliver at least once, outside any request (issue 28; reused by the webhooks of
 * issue 29). {@link #enqueue} writes a row of {@code outbox_messages} (V47) in the caller's transaction, so the
 * message exists exactly when the change that caused it commits; {@link OutboxDispatcher} delivers it through the
 * {@link OutboxHandler} of its kind, on one instance of several, retrying with back-off. Contract:
 * docs/operations.md, "The outbox".
 */
@Component
public class Outbox {

    static final int MAX_KIND = 50;
    static final int MAX_KEY = 200;

    private final JdbcTemplate jdbc;
    private final Clock clock;

    Outbox(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Enqueues {@code payload} for the handler of {@code kind}, due now, in the current transaction (there must be
     * one: a message whose change rolled back must not go out). Messages with the same {@code key} are delivered one
     * after the other in the order enqueued; messages of different keys go out at the same time, so use a key per
     * receiver and subject (a person at an application): order is owed there, and only there.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void enqueue(String kind, String key, String payload) {
        if (kind.isEmpty() || kind.length() > MAX_KIND || key.isEmpty() || key.length() > MAX_KEY) {
            throw new IllegalArgumentException("kind 1-" + MAX_KIND + " and key 1-" + MAX_KEY + " characters");
        }
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.update("insert into outbox_messages (kind, message_key, payload, created_at, due_at, attempts) "
                + "values (?, ?, ?, ?, ?, 0)", kind, key, payload, now, now);
    }

    /** How many messages wait (for diagnostics and tests), those being retried included. */
    public int pending(String kind) {
        Integer count = jdbc.queryForObject("select count(*) from outbox_messages where kind = ?", Integer.class, kind);
        return count == null ? 0 : count;
    }
}
