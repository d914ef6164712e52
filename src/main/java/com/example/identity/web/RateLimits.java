package com.example.identity.web;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;

import io.github.bucket4j.Bucket;

/**
 * In-memory token buckets (Bucket4j) for the limits of {@code identity.rate-limit.*}: a small budget of
 * failures per minute for each source address and client, and a generous rate of requests per second
 * for each client and token. Each key costs one map entry; the maps are emptied of idle buckets when
 * they grow past {@value #MAX_KEYS} keys, so an attacker cycling keys cannot exhaust memory.
 */
@Component
public class RateLimits {

    static final int MAX_KEYS = 100_000;

    private final IdentityProperties.RateLimit settings;
    private final Map<String, Bucket> failures = new ConcurrentHashMap<>();
    private final Map<String, Bucket> requests = new ConcurrentHashMap<>();

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
        Bucket bucket = failures.get(key);
        if (bucket == null || bucket.getAvailableTokens() > 0) {
            return 0;
        }
        return Math.max(1, Duration.ofNanos(bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill()).toSeconds() + 1);
    }

    /** Spends one failure of {@code key}. */
    public void recordFailure(String key) {
        bucket(failures, key, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(settings.failuresPerMinute())
                        .refillGreedy(settings.failuresPerMinute(), Duration.ofMinutes(1)))
                .build()).tryConsume(1);
    }

    /** Takes one request of {@code key}'s per-second rate; 0 when allowed, else seconds to wait. */
    public long tryRequest(String key) {
        var probe = bucket(requests, key, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(settings.requestsPerSecond())
                        .refillGreedy(settings.requestsPerSecond(), Duration.ofSeconds(1)))
                .build()).tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? 0 : Math.max(1, Duration.ofNanos(probe.getNanosToWaitForRefill()).toSeconds() + 1);
    }

    private static Bucket bucket(Map<String, Bucket> map, String key, Function<String, Bucket> make) {
        Bucket bucket = map.get(key);
        if (bucket != null) {
            return bucket;
        }
        if (map.size() >= MAX_KEYS) {
            map.clear(); // crude but bounded: buckets refill within a minute anyway
        }
        return map.computeIfAbsent(key, make);
    }
}
