package com.example.identity.outbox;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The start refuses a lease that a delivery could outlast: another instance would take a message still under way. */
class OutboxDispatcherTest {

    static OutboxHandler taking(Duration longest) {
        return new OutboxHandler() {
            @Override
            public String kind() {
                return "test";
            }

            @Override
            public void deliver(OutboxMessage message) {
            }

            @Override
            public Duration longestDelivery() {
                return longest;
            }
        };
    }

    static OutboxSettings lease(Duration lease) {
        return new OutboxSettings(Duration.ofSeconds(1), lease, Duration.ofSeconds(10), Duration.ofHours(1),
                Duration.ofHours(24), 20, 16, 4);
    }

    @Test
    void theLeaseIsAtLeastTwiceTheLongestDelivery() throws Exception {
        assertThatThrownBy(() -> new OutboxDispatcher(null, List.of(taking(Duration.ofSeconds(31))),
                lease(Duration.ofSeconds(60)), Clock.systemUTC())).isInstanceOf(IllegalStateException.class)
                .hasMessage("identity.outbox.lease (PT1M) must be at least twice the longest delivery (PT31S, "
                        + "identity.outbound.timeout)");
        OutboxDispatcher fits = new OutboxDispatcher(null, List.of(taking(Duration.ofSeconds(30))),
                lease(Duration.ofSeconds(60)), Clock.systemUTC());
        assertThatCode(fits::destroy).doesNotThrowAnyException();
    }
}
