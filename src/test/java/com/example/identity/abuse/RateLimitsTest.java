package com.example.identity.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.example.identity.IdentityProperties;

class RateLimitsTest {

    RateLimits limits(int failuresPerMinute, int requestsPerSecond) {
        var properties = new IdentityProperties("http://localhost:8080", new IdentityProperties.AuthorizationCode(Duration.ofMinutes(10)),
                new IdentityProperties.AccessToken(Duration.ofHours(1)), new IdentityProperties.SigningKey(null), null,
                new IdentityProperties.BootstrapAdmin(null, null),
                LoginThrottleTest.shippedLogin(),
                new IdentityProperties.RateLimit(true, failuresPerMinute, requestsPerSecond),
                new IdentityProperties.OneTimePassword(Duration.ofDays(7)),
                new IdentityProperties.Retention(Duration.ofDays(365), Duration.ofDays(30), Duration.ofDays(1)),
                new IdentityProperties.PasswordHashing(0));
        return new RateLimits(properties);
    }

    @Test
    void aSpentFailureBudgetBlocksAndAskingSpendsNothing() {
        var limits = limits(3, 100);
        limits.recordFailure("client|a");
        limits.recordFailure("client|a");
        assertThat(limits.failureBlockedFor("client|a")).isZero();
        assertThat(limits.failureBlockedFor("client|a")).isZero();
        limits.recordFailure("client|a");
        assertThat(limits.failureBlockedFor("client|a")).isBetween(1L, 61L);
        assertThat(limits.failureBlockedFor("client|b")).as("other keys keep theirs").isZero();
    }

    @Test
    void aFloodOfNewKeysDoesNotGiveBackTheBudgetOfAKeyInUse() {
        var limits = limits(20, 100);
        for (int i = 0; i < 19; i++) {
            limits.recordFailure("address|victim");
        }

        // More distinct keys than a cache holds, while the victim key keeps asking, as every request of
        // it does. The old bound emptied the whole map at MAX_KEYS keys and gave every budget back.
        for (int i = 0; i < RateLimits.MAX_KEYS + 20_000; i++) {
            limits.recordFailure("address|flood-" + i);
            if (i % 1_000 == 0) {
                assertThat(limits.failureBlockedFor("address|victim")).isZero();
            }
        }

        limits.recordFailure("address|victim");
        assertThat(limits.failureBlockedFor("address|victim")).as("the 20th failure still blocks").isPositive();
    }

    @Test
    void requestsBeyondThePerSecondRateWait() {
        var limits = limits(20, 2);
        assertThat(limits.tryRequest("token|t")).isZero();
        assertThat(limits.tryRequest("token|t")).isZero();
        assertThat(limits.tryRequest("token|t")).isEqualTo(1);
        assertThat(limits.tryRequest("token|u")).isZero();
    }
}
