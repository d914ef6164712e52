package com.example.identity.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import com.example.identity.IdentityProperties;

class LoginThrottleTest {

    MutableClock clock = new MutableClock();

    LoginThrottle throttle(int perAccount, int perAddress, Duration delayBase) {
        var properties = new IdentityProperties("http://localhost:8080", new IdentityProperties.AuthorizationCode(Duration.ofMinutes(10)),
                new IdentityProperties.AccessToken(Duration.ofHours(1)), new IdentityProperties.SigningKey(null), null,
                new IdentityProperties.BootstrapAdmin(null, null),
                new IdentityProperties.Login(perAccount, perAddress, Duration.ofMinutes(15), delayBase),
                new IdentityProperties.RateLimit(true, 200, 600, 5000), java.util.List.of());
        return new LoginThrottle(properties, clock);
    }

    @Test
    void delaysGrowFromTheSecondFailure() {
        var throttle = throttle(100, 100, Duration.ofSeconds(1));
        throttle.recordFailure("a@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.1")).isFalse();

        throttle.recordFailure("a@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("A@Example.com ", "10.0.0.2")).as("1 s after the 2nd failure").isTrue();
        clock.advance(Duration.ofMillis(1001));
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.1")).isFalse();

        throttle.recordFailure("a@example.com", "10.0.0.1");
        clock.advance(Duration.ofMillis(1500));
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.1")).as("2 s after the 3rd").isTrue();
        clock.advance(Duration.ofMillis(600));
        assertThat(throttle.isBlocked("a@example.com", "10.0.0.1")).isFalse();
        assertThat(throttle.isBlocked("b@example.com", "10.0.0.1")).as("other accounts are not slowed").isFalse();
    }

    @Test
    void accountLocksAfterMaxFailuresAndSuccessForgives() {
        var throttle = throttle(3, 100, Duration.ZERO);
        throttle.recordFailure("c@example.com", "10.0.0.1");
        throttle.recordFailure("c@example.com", "10.0.0.2");
        assertThat(throttle.isBlocked("c@example.com", "10.0.0.3")).isFalse();
        throttle.recordFailure("c@example.com", "10.0.0.3");
        assertThat(throttle.isBlocked("c@example.com", "10.0.0.9")).isTrue();

        throttle.recordSuccess("c@example.com");
        assertThat(throttle.isBlocked("c@example.com", "10.0.0.9")).isFalse();
    }

    @Test
    void addressLocksAfterMaxFailuresWhateverTheAccounts() {
        var throttle = throttle(100, 4, Duration.ZERO);
        for (int i = 0; i < 4; i++) {
            throttle.recordFailure("user" + i + "@example.com", "10.9.9.9");
        }
        assertThat(throttle.isBlocked("someone-else@example.com", "10.9.9.9")).isTrue();
        assertThat(throttle.isBlocked("someone-else@example.com", "10.9.9.8")).isFalse();
    }

    @Test
    void aLockLastsTheWholeLockDurationFromTheFailureThatCausedIt() {
        var throttle = throttle(3, 100, Duration.ZERO);
        throttle.recordFailure("d@example.com", "10.0.0.1");
        clock.advance(Duration.ofMinutes(14));
        throttle.recordFailure("d@example.com", "10.0.0.1");
        throttle.recordFailure("d@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("d@example.com", "10.0.0.1")).isTrue();

        clock.advance(Duration.ofMinutes(2));
        assertThat(throttle.isBlocked("d@example.com", "10.0.0.1")).as("the counting window has ended, the lock has not")
                .isTrue();
        clock.advance(Duration.ofMinutes(13).plusSeconds(1));
        assertThat(throttle.isBlocked("d@example.com", "10.0.0.1")).as("15 minutes after the locking failure").isFalse();

        throttle.recordFailure("d@example.com", "10.0.0.1");
        assertThat(throttle.isBlocked("d@example.com", "10.0.0.1")).as("counting starts afresh after a lock").isFalse();
    }

    @Test
    void failuresOutsideTheWindowAreForgotten() {
        var throttle = throttle(100, 3, Duration.ZERO);
        throttle.recordFailure("e1@example.com", "10.7.7.7");
        throttle.recordFailure("e2@example.com", "10.7.7.7");
        clock.advance(Duration.ofMinutes(16));
        throttle.recordFailure("e3@example.com", "10.7.7.7");
        assertThat(throttle.isBlocked("e4@example.com", "10.7.7.7")).isFalse();
    }

    @Test
    void aFloodOfNewKeysDoesNotGiveAnAccountUnderAttackItsFailuresBack() {
        var throttle = throttle(10, 1_000_000, Duration.ZERO);
        throttle.recordFailure("victim@example.com", "10.0.0.1");

        // More distinct e-mail and source addresses than the maps hold, with a failure of the account
        // under attack now and then (8 in all). The old bound emptied the maps at 100,000 keys.
        for (int i = 0; i < 120_000; i++) {
            throttle.recordFailure("flood" + i + "@example.com", "10.1." + (i >> 8) + "." + (i & 255));
            if (i % 15_000 == 14_999) {
                throttle.recordFailure("victim@example.com", "10.0.0.1");
            }
        }
        assertThat(throttle.isBlocked("victim@example.com", "10.0.0.1")).as("9 failures").isFalse();

        throttle.recordFailure("victim@example.com", "10.0.0.2");
        assertThat(throttle.isBlocked("victim@example.com", "10.0.0.3")).as("the 10th failure locks").isTrue();
    }

    static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-11-22T12:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
