package com.example.identity.abuse;

import java.time.Duration;

import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.github.bucket4j.Bucket;

/**
 * In-memory token buckets (Bucket4j) for the limits of {@code identity.rate-limit.*}: a small budget of
 * failures per minute for each source address and client, and a generous rate of requests per second
 * for each client and token. Each key costs one cache entry. A bucket left alone for its whole refill
 * period is full again, the same as no bucket, so it is forgotten then; and each cache holds at most
 * {@value #MAX_KEYS} keys, so an attacker cycling keys cannot exhaust memory. Past that bound Caffeine
 * evicts one key at a time, by how often it is used (W-TinyLFU): a flood of new keys cannot empty the
 * cache and hand every spent budget back at once.
 */
@Component
public class RateLimits {

    static final int MAX_KEYS = 100_000;

    private final IdentityProperties.RateLimit settings;
    private final Cache<String, Bucket> failures = buckets(Duration.ofMinutes(1));
    private final Cache<String, Bucket> requests = buckets(Duration.ofSeconds(1));

    RateLimits(IdentityProperties properties) {
        this.settings = properties.rateLimit();
    }

    public boolean enabled() {
        return settings.enabled();
    }

    /**
     * Seconds to wait before {@code key} may fail again, or 0 when it still has failures to spend.
     * Asking does not spend anything.
     */
    public long failureBlockedFor(String key) {
        Bucket bucket = failures.getIfPresent(key);
        if (bucket == null || bucket.getAvailableTokens() > 0) {
            return 0;
        }
        return Math.max(1, Duration.ofNanos(bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill()).toSeconds() + 1);
    }

    /** Spends one failure of {@code key}. */
    public void recordFailure(String key) {
        failures.get(key, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(settings.failuresPerMinute())
                        .refillGreedy(settings.failuresPerMinute(), Duration.ofMinutes(1)))
                .build()).tryConsume(1);
    }

    /** Takes one request of {@code key}'s per-second rate; 0 when allowed, else seconds to wait. */
    public long tryRequest(String key) {
        var probe = requests.get(key, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(settings.requestsPerSecond())
                        .refillGreedy(settings.requestsPerSecond(), Duration.ofSeconds(1)))
                .build()).tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? 0 : Math.max(1, Duration.ofNanos(probe.getNanosToWaitForRefill()).toSeconds() + 1);
    }

    private static Cache<String, Bucket> buckets(Duration refill) {
        return Caffeine.newBuilder().maximumSize(MAX_KEYS).expireAfterAccess(refill).build();
    }
}
