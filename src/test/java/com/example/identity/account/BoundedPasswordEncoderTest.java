package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.password.PasswordEncoder;

class BoundedPasswordEncoderTest {

    /** Counts how many hashes run at once and holds each until released. */
    static final class SlowEncoder implements PasswordEncoder {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger started = new AtomicInteger();

        @Override
        public String encode(CharSequence raw) {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            started.incrementAndGet();
            try {
                release.await(10, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            assertThat(Thread.currentThread().getName()).startsWith("password-hashing-");
            return "hash:" + raw;
        }

        @Override
        public boolean matches(CharSequence raw, String encoded) {
            return encode(raw).equals(encoded);
        }
    }

    @Test
    void noMoreHashesRunAtOnceThanThePoolHasThreads() throws Exception {
        var slow = new SlowEncoder();
        var callers = Executors.newFixedThreadPool(8);
        try (var bounded = new BoundedPasswordEncoder(slow, 2)) {
            var results = new ArrayList<Future<Boolean>>();
            for (int i = 0; i < 8; i++) {
                results.add(callers.submit(() -> bounded.matches("p", "hash:p")));
            }
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> slow.started.get() >= 2);
            // and for 100 ms more, time for a third hash to start if the bound did not hold
            await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(5))
                    .until(() -> slow.started.get() == 2);
            assertThat(slow.started.get()).isEqualTo(2);
            slow.release.countDown();
            for (var result : results) {
                assertThat(result.get(10, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(slow.mostAtOnce.get()).isEqualTo(2);
            assertThat(slow.started.get()).isEqualTo(8);
        }
        finally {
            callers.shutdownNow();
        }
    }

    @Test
    void theDelegatesExceptionsReachTheCallerUnchanged() {
        PasswordEncoder failing = new PasswordEncoder() {
            @Override
            public String encode(CharSequence raw) {
                throw new IllegalArgumentException("no encoder for this id");
            }

            @Override
            public boolean matches(CharSequence raw, String encoded) {
                throw new IllegalArgumentException("no encoder for this id");
            }
        };
        try (var bounded = new BoundedPasswordEncoder(failing, 1)) {
            assertThatThrownBy(() -> bounded.matches("p", "{x}y"))
                    .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("no encoder for this id");
        }
    }

    @Test
    void pastTheQueueBoundAHashIsRefusedAtOnceAndLaterOnesRunAgain() throws Exception {
        var slow = new SlowEncoder();
        var callers = Executors.newFixedThreadPool(3);
        try (var bounded = new BoundedPasswordEncoder(slow, 1, 1)) {
            var running = callers.submit(() -> bounded.matches("p", "hash:p"));
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> slow.started.get() >= 1);
            var waiting = callers.submit(() -> bounded.matches("p", "hash:p"));
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> bounded.queued() >= 1);
            long start = System.nanoTime();
            assertThatThrownBy(() -> bounded.matches("p", "hash:p")).isInstanceOf(PasswordHashingBusy.class);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("refused without waiting")
                    .isLessThan(1000);

            slow.release.countDown();
            assertThat(running.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(bounded.matches("p", "hash:p")).as("room again").isTrue();
        }
        finally {
            callers.shutdownNow();
        }
    }
}
