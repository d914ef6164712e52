package com.example.identity.outbox;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;

/**
 * Delivers the outbox's due messages, on every instance, every {@code identity.outbox.poll-interval}:
 * <ol>
 * <li>reads the due messages whose lease is free, each the oldest left of its key (so one key's messages go in
 * order, one at a time);</li>
 * <li>takes as many as it has free delivery threads ({@code concurrency}), at most {@code batch-size}, shared among
 * the receivers by {@link ReceiverShares} (the least busy receiver first, at most {@code per-receiver} in flight for
 * one, a quarter of the threads kept for receivers with nothing in flight), the others left for the next poll;</li>
 * <li>claims each with {@code update ... set claimed_until = now + lease where id = ? and (claimed_until is null or
 * claimed_until < now)}: of the instances that read the same row, exactly one updates it (H2 and PostgreSQL
 * alike), the others skip it;</li>
 * <li>hands it to a delivery thread, which calls the handler of its kind; delivered: the row is deleted; failed:
 * {@code attempts + 1}, the next attempt after {@link OutboxSettings#backOff} (10 s doubling up to 1 h), the lease
 * released; a message older than {@code give-up-after} (24 h) that fails again is deleted with a warning. A message
 * of a kind no handler knows is left alone (a newer instance may know it).</li>
 * </ol>
 * A handler returns within its {@link OutboxHandler#longestDelivery() longest delivery} (the outbound timeout), and
 * the lease is at least twice that (checked at start), so a message is never delivered twice at once. A receiver that
 * is slow or never answers holds one thread until its deadline, never the poll nor another receiver's delivery. An
 * instance that stops mid-delivery leaves the lease to expire; another then delivers the message again (at least
 * once). Each autocommit statement stands alone: a delivery never holds a transaction or a connection.
 */
@Component
class OutboxDispatcher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(OutboxDispatcher.class);

    private final JdbcTemplate jdbc;
    private final Map<String, OutboxHandler> handlers;
    private final OutboxSettings settings;
    private final Clock clock;
    private final ThreadPoolExecutor deliveries;
    private final Duration longestDelivery;
    /** Which receivers the delivery threads are given to. */
    private final ReceiverShares shares;
    /** The messages being delivered here: never claimed again while they run, even if the clock jumps past a lease. */
    private final Set<Long> delivering = ConcurrentHashMap.newKeySet();

    OutboxDispatcher(JdbcTemplate jdbc, List<OutboxHandler> handlers, OutboxSettings settings, Clock clock) {
        this.jdbc = jdbc;
        this.handlers = handlers.stream().collect(Collectors.toMap(OutboxHandler::kind, Function.identity()));
        this.settings = settings;
        this.clock = clock;
        this.longestDelivery = handlers.stream().map(OutboxHandler::longestDelivery).max(Duration::compareTo)
                .orElse(Duration.ZERO);
        if (settings.lease().compareTo(longestDelivery.multipliedBy(2)) < 0) {
            throw new IllegalStateException("identity.outbox.lease (" + settings.lease() + ") must be at least twice "
                    + "the longest delivery (" + longestDelivery + ", identity.outbound.timeout)");
        }
        this.shares = new ReceiverShares(settings.concurrency(), settings.perReceiver());
        this.deliveries = new ThreadPoolExecutor(settings.concurrency(), settings.concurrency(), 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), new CustomizableThreadFactory("outbox-"));
        deliveries.allowCoreThreadTimeOut(true);
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

    /** One round: claims what is due now and there are threads for, and starts delivering it; returns how many. */
    int dispatchDue() {
        int free = shares.free();
        if (handlers.isEmpty() || free <= 0 || deliveries.isShutdown()) {
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
        // each receiver's due messages, the receivers in the order their oldest message has waited
        Map<String, Deque<OutboxMessage>> waiting = new LinkedHashMap<>();
        for (OutboxMessage message : due) {
            OutboxHandler handler = handlers.get(message.kind());
            if (handler != null && !delivering.contains(message.id())) {
                waiting.computeIfAbsent(handler.receiver(message), r -> new ArrayDeque<>()).add(message);
            }
        }
        int started = 0;
        while (started < Math.min(free, settings.batchSize()) && !waiting.isEmpty()) {
            String receiver = shares.take(waiting.keySet());
            if (receiver == null) {
                break; // the receivers left have their share in flight
            }
            Deque<OutboxMessage> queue = waiting.get(receiver);
            OutboxMessage message = queue.poll();
            if (queue.isEmpty()) {
                waiting.remove(receiver);
            }
            if (!claim(message, now)) {
                shares.release(receiver); // another instance took it
                continue;
            }
            if (!start(handlers.get(message.kind()), message, receiver)) {
                break;
            }
            started++;
        }
        return started;
    }

    /** Hands a claimed message to a delivery thread; false when the pool is closing (the claim released). */
    private boolean start(OutboxHandler handler, OutboxMessage message, String receiver) {
        delivering.add(message.id());
        try {
            deliveries.execute(() -> {
                try {
                    deliver(handler, message);
                }
                finally {
                    delivering.remove(message.id());
                    shares.release(receiver);
                }
            });
            return true;
        }
        catch (RejectedExecutionException stopping) {
            delivering.remove(message.id());
            shares.release(receiver);
            jdbc.update("update outbox_messages set claimed_until = null where id = ?", message.id());
            return false;
        }
    }

    private boolean claim(OutboxMessage message, Instant now) {
        return jdbc.update("update outbox_messages set claimed_until = ? where id = ? "
                + "and (claimed_until is null or claimed_until < ?)", Timestamp.from(now.plus(settings.lease())),
                message.id(), Timestamp.from(now)) == 1;
    }

    private void deliver(OutboxHandler handler, OutboxMessage message) {
        try {
            handler.deliver(message);
            jdbc.update("delete from outbox_messages where id = ?", message.id());
        }
        catch (Exception e) {
            try {
                failed(message, e);
            }
            catch (RuntimeException database) {
                // the lease runs out and the message is tried again
                log.warn("Outbox message {}: the failed attempt was not recorded ({})", message.id(),
                        database.getClass().getSimpleName());
            }
        }
    }

    private void failed(OutboxMessage message, Exception e) {
        Instant now = clock.instant();
        String error = e.getClass().getSimpleName();
        if (!message.createdAt().plus(settings.giveUpAfter()).isAfter(now)) {
            jdbc.update("delete from outbox_messages where id = ?", message.id());
            log.warn("Outbox message {} of kind {} dropped after {} attempts over {} ({})", message.id(),
                    message.kind(), message.attempt(), settings.giveUpAfter(), error);
            return;
        }
        jdbc.update("update outbox_messages set attempts = ?, due_at = ?, claimed_until = null, last_error = ? "
                + "where id = ?", message.attempt(), Timestamp.from(now.plus(settings.backOff(message.attempt()))),
                error.length() > 200 ? error.substring(0, 200) : error, message.id());
        log.info("Outbox message {} of kind {}: attempt {} failed ({}), next in {}", message.id(), message.kind(),
                message.attempt(), error, settings.backOff(message.attempt()));
    }

    /**
     * Stops taking messages and lets the deliveries under way end (each within its deadline), so that their outcome
     * is recorded while the database is still there; what is left is taken again after its lease.
     */
    @Override
    public void destroy() throws InterruptedException {
        deliveries.shutdown();
        if (!deliveries.awaitTermination(longestDelivery.toMillis() + 2000, TimeUnit.MILLISECONDS)) {
            deliveries.shutdownNow();
        }
    }
}
