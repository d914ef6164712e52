package com.example.identity.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The outbox's back-off: the first retry after 10 s, doubling, never more than 1 h apart; its pool's bounds. */
class OutboxSettingsTest {

    final OutboxSettings settings = settings(16, 4);

    static OutboxSettings settings(int concurrency, int perReceiver) {
        return new OutboxSettings(Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofSeconds(10),
                Duration.ofHours(1), Duration.ofHours(24), 20, concurrency, perReceiver);
    }

    @Test
    void theWaitDoublesAfterEachFailureUpToTheCap() {
        assertThat(settings.backOff(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.backOff(2)).isEqualTo(Duration.ofSeconds(20));
        assertThat(settings.backOff(3)).isEqualTo(Duration.ofSeconds(40));
        assertThat(settings.backOff(9)).isEqualTo(Duration.ofSeconds(2560));
        assertThat(settings.backOff(10)).isEqualTo(Duration.ofHours(1));
        assertThat(settings.backOff(1000)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void thePoolIsBoundedAndOneReceiversShareIsAtMostThePool() {
        assertThat(settings(2, 4).perReceiver()).isEqualTo(2);
        assertThat(settings(16, 4).perReceiver()).isEqualTo(4);
        assertThatThrownBy(() -> settings(0, 1)).hasMessageContaining("identity.outbox.concurrency");
        assertThatThrownBy(() -> settings(201, 1)).hasMessageContaining("identity.outbox.concurrency");
        assertThatThrownBy(() -> settings(4, 0)).hasMessageContaining("per-receiver");
    }
}
