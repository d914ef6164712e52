package com.example.identity.outbox;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Delivers the outbox's due messages, on the scheduler's thread of every instance, every
 * {@code identity.outbox.poll-interval}:
 * <ol>
 * <li>reads up to {@code batch-size} due messages whose lease is free, each the oldest left of its key (so one key's
 * messages go in order, one at a time);</li>
 * <li>claims each with {@code update ... set claimed_until = now + lease where id = ? and (claimed_until is null or
 * claimed_until < now)}: of the instances that read the same row, exactly one updates it (H2 and PostgreSQL
 * alike), the others skip it;</li>
 * <li>calls the handler of its kind; delivered: the row is deleted; failed: {@code attempts + 1}, the next attempt
 * after {@link OutboxSettings#backOff} (10 s doubling up to 1 h), the lease released; a message older than
 * {@code give-up-after} (24 h) that fails again is deleted with a warning. A message of a kind no handler knows is
 * left alone (a newer instance may know it).</li>
 * </ol>
 * An instance that stops mid-delivery leaves the lease to expire; another then delivers the message again (at least
 * once). Each autocommit statement stands alone: a delivery never holds a transaction or a connection.
 */
@Component
class OutboxDispatcher {

    private static final Logger log = LoggerFactory.getLogger(OutboxDispatcher.class);

    private final JdbcTemplate jdbc;
    private final Map<String, OutboxHandler> handlers;
    private final OutboxSettings settings;
    private final Clock clock;

    OutboxDispatcher(JdbcTemplate jdbc, List<OutboxHandler> handlers, OutboxSettings settings, Clock clock) {
        this.jdbc = jdbc;
        this.handlers = handlers.stream().collect(Collectors.toMap(OutboxHandler::kind, Function.identity()));
        this.settings = settings;
        this.clock = clock;
    }

    @Scheduled(fixedDelayString = "${identity.outbox.poll-interval:1s}", initialDelayString = "${identity.outbox.poll-interval:1s}")
    void poll() {
        try {
            dispatchDue();
        }
        catch (RuntimeException e) {
            // the database away for a moment: the next poll tries again
            log.warn("Outbox poll failed ({})", e.getClass().getSimpleName());
        }
    }

    /** One round: claims and delivers what is due now; returns how many were delivered. */
    int dispatchDue() {
        if (handlers.isEmpty()) {
            return 0;
        }
        Instant now = clock.instant();
        Timestamp at = Timestamp.from(now);
        List<OutboxMessage> due = jdbc.query("""
                select o.id, o.kind, o.message_key, o.payload, o.attempts, o.created_at from outbox_messages o
                where o.due_at <= ? and (o.claimed_until is null or o.claimed_until < ?)
                  and not exists (select 1 from outbox_messages e where e.message_key = o.message_key and e.id < o.id)
                order by o.due_at, o.id""",
                (rs, i) -> new OutboxMessage(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getInt(5) + 1, rs.getTimestamp(6).toInstant()),
                at, at);
        int delivered = 0;
        for (OutboxMessage message : due.subList(0, Math.min(due.size(), settings.batchSize()))) {
            OutboxHandler handler = handlers.get(message.kind());
            if (handler == null || !claim(message, now)) {
                continue;
            }
            delivered += deliver(handler, message) ? 1 : 0;
        }
        return delivered;
    }

    private boolean claim(OutboxMessage message, Instant now) {
        return jdbc.update("update outbox_messages set claimed_until = ? where id = ? "
                + "and (claimed_until is null or claimed_until < ?)", Timestamp.from(now.plus(settings.lease())),
                message.id(), Timestamp.from(now)) == 1;
    }

    private boolean deliver(OutboxHandler handler, OutboxMessage message) {
        try {
            handler.deliver(message);
            jdbc.update("delete from outbox_messages where id = ?", message.id());
            return true;
        }
        catch (Exception e) {
            Instant now = clock.instant();
            String error = e.getClass().getSimpleName();
            if (!message.createdAt().plus(settings.giveUpAfter()).isAfter(now)) {
                jdbc.update("delete from outbox_messages where id = ?", message.id());
                log.warn("Outbox message {} of kind {} dropped after {} attempts over {} ({})", message.id(),
                        message.kind(), message.attempt(), settings.giveUpAfter(), error);
                return false;
            }
            jdbc.update("update outbox_messages set attempts = ?, due_at = ?, claimed_until = null, last_error = ? "
                    + "where id = ?", message.attempt(), Timestamp.from(now.plus(settings.backOff(message.attempt()))),
                    error.length() > 200 ? error.substring(0, 200) : error, message.id());
            log.info("Outbox message {} of kind {}: attempt {} failed ({}), next in {}", message.id(), message.kind(),
                    message.attempt(), error, settings.backOff(message.attempt()));
            return false;
        }
    }
}
