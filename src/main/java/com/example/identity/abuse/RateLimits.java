package com.example.identity.abuse;

import java.time.Duration;
import java.util.function.BiConsumer;

import org.springframework.beans.factory.annotation.Autowired;

import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.common.CacheInvalidation;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.github.bucket4j.Bucket;

/**
 * In-memory token buckets (Bucket4j) for the limits of {@code identity.rate-limit.*}:
 * <ul>
 * <li>{@link Budget#TOKEN_FAILURES}: token endpoint requests refused before the client authenticated,
 *     per source address ({@code failures-per-minute}, default 200);</li>
 * <li>{@link Budget#UNKNOWN_TOKENS}: bearer tokens that match no token, per source address
 *     ({@code unknown-tokens-per-minute}, default 600);</li>
 * <li>{@link Budget#RECOVERY_REQUESTS}: password recovery requests, per source address
 *     ({@code recovery-requests} over 15 minutes, default 5);</li>
 * <li>{@link #tryRequest}: requests per second of one authenticated client or one valid token
 *     ({@code requests-per-second}, default 5000).</li>
 * </ul>
 * Addresses are keyed by {@link ClientAddress}. Each key costs one cache entry. A bucket left alone for its
 * whole refill period is full again, the same as no bucket, so it is forgotten then; and each cache holds
 * at most {@value #MAX_KEYS} keys, so an attacker cycling keys cannot exhaust memory. Past that bound
 * Caffeine evicts one key at a time, by how often it is used (W-TinyLFU): a flood of new keys cannot empty
 * the cache and hand every spent budget back at once.
 *
 * <p>Several instances: the failure budgets count as one (decisions §13). Each failure is spent here and
 * sent to every other instance ({@link CacheInvalidation#publish}, PostgreSQL NOTIFY), which spends it from
 * its own bucket of that address; checks stay in memory, so a request that fails nothing costs no database
 * round trip. The per-second rate of one client or token is each instance's own: it guards an instance
 * against a flood, and N instances are there to take N times the traffic.
 */
@Component
public class RateLimits {

    static final int MAX_KEYS = 100_000;

    /** The budgets of failures, per address (or account), each spent and refilled over a minute unless said otherwise. */
    public enum Budget {
        /** Token endpoint requests refused before the client authenticated. */
        TOKEN_FAILURES,
        /** Bearer tokens at {@code /api/**} that match no token, or are malformed. */
        UNKNOWN_TOKENS,
        /** Password recovery requests at {@code /login/recuperar}, per address, refilled over 15 minutes. */
        RECOVERY_REQUESTS
    }

    /** The period over which {@link Budget#RECOVERY_REQUESTS} refills. */
    public static final Duration RECOVERY_PERIOD = Duration.ofMinutes(15);

    /**
     * The period over which the guessing budget of {@code /activar} ({@code user-code-failures}) refills, a
     * device code's lifetime. That budget is kept in the database, not here ({@code device/UserCodeGuesses}):
     * it must be taken atomically before each lookup, on every instance at once.
     */
    public static final Duration USER_CODE_PERIOD = Duration.ofMinutes(10);

    private final IdentityProperties.RateLimit settings;
    private final Cache<String, Bucket> tokenFailures = buckets(Duration.ofMinutes(1));
    private final Cache<String, Bucket> unknownTokens = buckets(Duration.ofMinutes(1));
    private final Cache<String, Bucket> requests = buckets(Duration.ofSeconds(1));
    private final Cache<String, Bucket> recoveryRequests = buckets(RECOVERY_PERIOD);

    /** Topic of the failures other instances spent: {@code <budget> <address>}. */
    static final String FAILURES = "rate-failure";

    private final BiConsumer<String, String> toOthers;

    /** One instance alone (unit tests). */
    RateLimits(IdentityProperties properties) {
        this(properties, (topic, message) -> {
        });
    }

    /** One of the instances on the database: failures spent here are spent on every other one. */
    @Autowired
    RateLimits(IdentityProperties properties, CacheInvalidation cluster) {
        this(properties, cluster::publish);
        cluster.subscribe(FAILURES, this::failureElsewhere);
    }

    RateLimits(IdentityProperties properties, BiConsumer<String, String> toOthers) {
        this.settings = properties.rateLimit();
        this.toOthers = toOthers;
    }

    /** A failure another instance spent. */
    void failureElsewhere(String message) {
        int space = message.indexOf(' ');
        spend(Budget.valueOf(message.substring(0, space)), message.substring(space + 1));
    }

    public boolean enabled() {
        return settings.enabled();
    }

    /**
     * Seconds to wait before {@code address} may fail again in {@code budget}, or 0 when it still has
     * failures to spend (always 0 when limits are off). Asking does not spend anything.
     */
    public long blockedFor(Budget budget, String address) {
        if (!settings.enabled()) {
            return 0;
        }
        Bucket bucket = cache(budget).getIfPresent(address);
        if (bucket == null || bucket.getAvailableTokens() > 0) {
            return 0;
        }
        return seconds(bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill());
    }

    /** Spends one failure of {@code address} in {@code budget}. */
    public void recordFailure(Budget budget, String address) {
        if (!settings.enabled()) {
            return;
        }
        spend(budget, address);
        toOthers.accept(FAILURES, budget.name() + " " + address);
    }

    private void spend(Budget budget, String address) {
        int capacity = switch (budget) {
            case TOKEN_FAILURES -> settings.failuresPerMinute();
            case UNKNOWN_TOKENS -> settings.unknownTokensPerMinute();
            case RECOVERY_REQUESTS -> settings.recoveryRequests();
        };
        Duration period = switch (budget) {
            case RECOVERY_REQUESTS -> RECOVERY_PERIOD;
            default -> Duration.ofMinutes(1);
        };
        cache(budget).get(address, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(capacity).refillGreedy(capacity, period))
                .build()).tryConsume(1);
    }

    /**
     * Takes one request of {@code caller}'s per-second rate (an authenticated client or a valid token,
     * never a name a request merely claims); 0 when allowed, else seconds to wait.
     */
    public long tryRequest(String caller) {
        if (!settings.enabled()) {
            return 0;
        }
        var probe = requests.get(caller, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(settings.requestsPerSecond())
                        .refillGreedy(settings.requestsPerSecond(), Duration.ofSeconds(1)))
                .build()).tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? 0 : seconds(probe.getNanosToWaitForRefill());
    }

    private Cache<String, Bucket> cache(Budget budget) {
        return switch (budget) {
            case TOKEN_FAILURES -> tokenFailures;
            case UNKNOWN_TOKENS -> unknownTokens;
            case RECOVERY_REQUESTS -> recoveryRequests;
        };
    }

    /** {@code Retry-After} in whole seconds, rounded up, at least 1. */
    private static long seconds(long nanos) {
        return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
    }

    private static Cache<String, Bucket> buckets(Duration refill) {
        return Caffeine.newBuilder().maximumSize(MAX_KEYS).expireAfterAccess(refill).build();
    }
}
