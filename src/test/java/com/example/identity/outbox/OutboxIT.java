package com.example.identity.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestComponent;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MovableClock;

/**
 * The outbox's contract (docs/operations.md): enqueued only inside a transaction, delivered by the dispatcher off
 * the request, in order per key (a failing message holds back the later ones of its key only), retried with
 * back-off, dropped when it still fails 24 hours after it was enqueued.
 */
@IntegrationTest
@Import(OutboxIT.Recorder.class)
class OutboxIT {

    @Autowired
    Outbox outbox;

    @Autowired
    Recorder recorder;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MovableClock clock;

    /** Delivers payloads of kind {@code test-outbox}; those starting with "fail" fail. */
    @TestComponent
    static class Recorder implements OutboxHandler {

        final List<String> delivered = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();

        @Override
        public String kind() {
            return "test-outbox";
        }

        @Override
        public java.time.Duration longestDelivery() {
            return java.time.Duration.ofSeconds(1);
        }

        @Override
        public void deliver(OutboxMessage message) throws IOException {
            threads.add(Thread.currentThread().getName());
            if (message.payload().startsWith("fail")) {
                throw new IOException("receiver down: " + message.payload());
            }
            delivered.add(message.payload());
        }
    }

    @Test
    void messagesGoInOrderPerKeyWithBackOffAndAreDroppedAfter24Hours() {
        String run = UUID.randomUUID().toString();
        String blocked = "key-a-" + run;
        transactions.executeWithoutResult(status -> {
            outbox.enqueue("test-outbox", blocked, "fail-1-" + run);
            outbox.enqueue("test-outbox", blocked, "ok-2-" + run);
            outbox.enqueue("test-outbox", "key-b-" + run, "ok-3-" + run);
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.delivered.contains("ok-3-" + run));
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(
                "select attempts from outbox_messages where payload = ?", Integer.class, "fail-1-" + run) >= 1);
        assertThat(recorder.delivered).doesNotContain("ok-2-" + run);
        assertThat(jdbc.queryForObject("select last_error from outbox_messages where payload = ?", String.class,
                "fail-1-" + run)).isEqualTo("IOException");
        assertThat(recorder.threads).allSatisfy(name -> assertThat(name).doesNotStartWith("http-nio"));

        clock.advance(Duration.ofHours(25));
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.delivered.contains("ok-2-" + run));
        assertThat(jdbc.queryForObject("select count(*) from outbox_messages where message_key = ?", Integer.class,
                blocked)).isZero();
        assertThat(recorder.delivered).doesNotContain("fail-1-" + run);
    }

    @Test
    void aMessageIsEnqueuedOnlyInATransactionAndNeverAfterARollback() {
        assertThatThrownBy(() -> outbox.enqueue("test-outbox", "k", "outside"))
                .isInstanceOf(IllegalTransactionStateException.class);
        String run = UUID.randomUUID().toString();
        transactions.executeWithoutResult(status -> {
            outbox.enqueue("test-outbox", "key-" + run, "rolled-back-" + run);
            status.setRollbackOnly();
        });
        assertThat(jdbc.queryForObject("select count(*) from outbox_messages where payload = ?", Integer.class,
                "rolled-back-" + run)).isZero();
    }
}
