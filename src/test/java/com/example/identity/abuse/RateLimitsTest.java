package com.example.identity.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import com.example.identity.IdentityProperties;
import com.example.identity.abuse.RateLimits.Budget;

class RateLimitsTest {

    static IdentityProperties properties(boolean enabled, int failuresPerMinute, int unknownTokensPerMinute,
            int requestsPerSecond) {
        return new IdentityProperties("http://localhost:8080", new IdentityProperties.AuthorizationCode(Duration.ofMinutes(10)),
                new IdentityProperties.AccessToken(Duration.ofHours(1)),
                new IdentityProperties.RefreshToken(Duration.ofDays(30)), new IdentityProperties.SigningKey(null), null,
                new IdentityProperties.BootstrapAdmin(null, null),
                LoginThrottleTest.shippedLogin(),
                new IdentityProperties.RateLimit(enabled, failuresPerMinute, unknownTokensPerMinute, requestsPerSecond, 10, 5),
                List.of(),
                new IdentityProperties.OneTimePassword(Duration.ofDays(7)),
                new IdentityProperties.Retention(Duration.ofDays(365), Duration.ofDays(30), Duration.ofDays(1)),
                new IdentityProperties.PasswordHashing(0));
    }

    /** The clock of the buckets and caches, moved by the test; their upkeep runs on the test's thread. */
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final RateLimits.Time time = new RateLimits.Time(nanos::get, Runnable::run);

    RateLimits limits(int failuresPerMinute, int unknownTokensPerMinute, int requestsPerSecond) {
        return new RateLimits(properties(true, failuresPerMinute, unknownTokensPerMinute, requestsPerSecond),
                (topic, message) -> {
                }, time);
    }

    void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    /** The figures docs/security.md and the acceptance tests (AbuseLimitsIT) state are the ones that ship. */
    @Test
    void shippedDefaultsAreTheDocumentedFigures() {
        IdentityProperties shipped = new Binder(new MapConfigurationPropertySource())
                .bindOrCreate("identity", IdentityProperties.class);
        assertThat(shipped.rateLimit()).isEqualTo(new IdentityProperties.RateLimit(true, 200, 600, 5000, 10, 5));
        assertThat(shipped.trustedProxies()).as("nobody's X-Forwarded-For is believed").isEmpty();
    }

    @Test
    void aSpentFailureBudgetBlocksAndAskingSpendsNothing() {
        var limits = limits(3, 100, 100);
        limits.recordFailure(Budget.TOKEN_FAILURES, "203.0.113.1");
        limits.recordFailure(Budget.TOKEN_FAILURES, "203.0.113.1");
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "203.0.113.1")).isZero();
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "203.0.113.1")).isZero();
        limits.recordFailure(Budget.TOKEN_FAILURES, "203.0.113.1");
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "203.0.113.1")).isBetween(1L, 60L);
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "203.0.113.2")).as("other addresses keep theirs").isZero();
        assertThat(limits.blockedFor(Budget.UNKNOWN_TOKENS, "203.0.113.1")).as("the other budget is untouched").isZero();
    }

    @Test
    void eachBudgetHasItsOwnSize() {
        var limits = limits(2, 5, 100);
        for (int i = 0; i < 4; i++) {
            limits.recordFailure(Budget.UNKNOWN_TOKENS, "a");
        }
        assertThat(limits.blockedFor(Budget.UNKNOWN_TOKENS, "a")).isZero();
        limits.recordFailure(Budget.UNKNOWN_TOKENS, "a");
        assertThat(limits.blockedFor(Budget.UNKNOWN_TOKENS, "a")).isPositive();

        limits.recordFailure(Budget.TOKEN_FAILURES, "a");
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "a")).isZero();
        limits.recordFailure(Budget.TOKEN_FAILURES, "a");
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "a")).isPositive();
    }

    @Test
    void retryAfterIsTheWaitForOneFailureRoundedUp() {
        var limits = limits(60, 100, 100); // one failure back every second
        for (int i = 0; i < 60; i++) {
            limits.recordFailure(Budget.TOKEN_FAILURES, "a");
        }
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "a")).isEqualTo(1);
        advance(Duration.ofMillis(999));
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "a")).as("1 ms left, rounded up").isEqualTo(1);
        advance(Duration.ofMillis(1));
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "a")).as("one failure back").isZero();

        var slow = limits(1, 100, 100); // one failure back every minute
        slow.recordFailure(Budget.TOKEN_FAILURES, "a");
        assertThat(slow.blockedFor(Budget.TOKEN_FAILURES, "a")).isEqualTo(60);
        advance(Duration.ofSeconds(30).plusMillis(1));
        assertThat(slow.blockedFor(Budget.TOKEN_FAILURES, "a")).isEqualTo(30);
    }

    @Test
    void aBudgetLeftAloneForItsRefillPeriodIsFullAgainAndForgotten() {
        var limits = limits(2, 100, 100);
        limits.recordFailure(Budget.TOKEN_FAILURES, "a");
        limits.recordFailure(Budget.TOKEN_FAILURES, "a");
        limits.recordFailure(Budget.RECOVERY_REQUESTS, "a");
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "a")).isPositive();

        advance(Duration.ofSeconds(59));
        limits.cleanUp();
        assertThat(limits.keys(Budget.TOKEN_FAILURES)).as("asked 59 s ago: remembered").isOne();
        advance(Duration.ofMinutes(1));
        limits.cleanUp();
        assertThat(limits.keys(Budget.TOKEN_FAILURES)).as("a minute alone: full again, forgotten").isZero();
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "a")).isZero();
        assertThat(limits.keys(Budget.RECOVERY_REQUESTS)).as("refills over 15 minutes: still there").isOne();
        advance(RateLimits.RECOVERY_PERIOD);
        limits.cleanUp();
        assertThat(limits.keys(Budget.RECOVERY_REQUESTS)).isZero();
    }

    /**
     * The bound forgets as few keys as it must, one at a time, never the whole map (the first bound cleared it at
     * MAX_KEYS and gave every spent budget back). Which keys go is Caffeine's choice (it prefers the least used) and
     * is not asserted: the cache does not promise it (RateLimits' Javadoc says why that costs nothing).
     */
    @Test
    void aFloodOfNewKeysForgetsOnlyAsManyKeysAsItAdds() {
        var limits = limits(20, 100, 100);
        for (int i = 0; i < RateLimits.MAX_KEYS; i++) {
            limits.recordFailure(Budget.TOKEN_FAILURES, "before-" + i);
        }
        limits.cleanUp();
        assertThat(limits.keys(Budget.TOKEN_FAILURES)).isEqualTo(RateLimits.MAX_KEYS);

        int flood = 20_000;
        for (int i = 0; i < flood; i++) {
            limits.recordFailure(Budget.TOKEN_FAILURES, "flood-" + i);
        }
        limits.cleanUp();
        assertThat(limits.keys(Budget.TOKEN_FAILURES)).as("full, never emptied").isEqualTo(RateLimits.MAX_KEYS);
        long remembered = java.util.stream.IntStream.range(0, RateLimits.MAX_KEYS)
                .filter(i -> limits.isRemembered(Budget.TOKEN_FAILURES, "before-" + i)).count();
        assertThat(remembered).as("at most one earlier key forgotten per new key")
                .isGreaterThanOrEqualTo(RateLimits.MAX_KEYS - flood);
    }

    @Test
    void requestsBeyondThePerSecondRateWait() {
        var limits = limits(20, 20, 2);
        assertThat(limits.tryRequest("token|1")).isZero();
        assertThat(limits.tryRequest("token|1")).isZero();
        assertThat(limits.tryRequest("token|1")).isEqualTo(1);
        assertThat(limits.tryRequest("token|2")).isZero();
        advance(Duration.ofMillis(500));
        assertThat(limits.tryRequest("token|1")).as("half a second: one request back").isZero();
        assertThat(limits.tryRequest("token|1")).isEqualTo(1);
    }

    @Test
    void disabledLimitsNeverBlock() {
        var limits = new RateLimits(properties(false, 1, 1, 1), (topic, message) -> {
        }, time);
        for (int i = 0; i < 5; i++) {
            limits.recordFailure(Budget.TOKEN_FAILURES, "a");
            limits.recordFailure(Budget.UNKNOWN_TOKENS, "a");
            assertThat(limits.tryRequest("client|c")).isZero();
        }
        assertThat(limits.blockedFor(Budget.TOKEN_FAILURES, "a")).isZero();
        assertThat(limits.blockedFor(Budget.UNKNOWN_TOKENS, "a")).isZero();
    }

    @Test
    void failuresSpentOnOneInstanceAreSpentOnTheOther() {
        RateLimits[] nodes = new RateLimits[2];
        for (int n = 0; n < 2; n++) {
            int other = 1 - n;
            nodes[n] = new RateLimits(properties(true, 4, 4, 100), (topic, message) -> nodes[other].failureElsewhere(message),
                    time);
        }
        nodes[0].recordFailure(Budget.TOKEN_FAILURES, "203.0.113.1");
        nodes[1].recordFailure(Budget.TOKEN_FAILURES, "203.0.113.1");
        nodes[0].recordFailure(Budget.TOKEN_FAILURES, "203.0.113.1");
        assertThat(nodes[1].blockedFor(Budget.TOKEN_FAILURES, "203.0.113.1")).isZero();
        nodes[1].recordFailure(Budget.TOKEN_FAILURES, "203.0.113.1");
        assertThat(nodes[0].blockedFor(Budget.TOKEN_FAILURES, "203.0.113.1")).isPositive();
        assertThat(nodes[1].blockedFor(Budget.TOKEN_FAILURES, "203.0.113.1")).isPositive();
        assertThat(nodes[0].blockedFor(Budget.UNKNOWN_TOKENS, "203.0.113.1")).as("another budget").isZero();
        assertThat(nodes[0].blockedFor(Budget.TOKEN_FAILURES, "203.0.113.2")).as("another address").isZero();
    }
}
