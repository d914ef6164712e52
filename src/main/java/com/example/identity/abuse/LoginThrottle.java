package com.example.identity.abuse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;

/**
 * Brute-force protection of the login form (decisions §3). Failures are counted per e-mail address
 * (known or not, so the answer says nothing about which accounts exist) and per source address, in
 * Bucket4j buckets that hold {@code max-failures-*} failures per {@code lock-duration} window. The
 * failure that empties a bucket locks its key for a whole {@code lock-duration} from that moment (not
 * just until the window ends), then counting starts afresh. Before that, failures of an account slow
 * it down: after the second, the next attempt is refused until a delay has passed that doubles each
 * time. Attempts are refused without checking the password, so a locked account costs no hashing.
 * Buckets and locks run on the application's {@link Clock}, so tests move time instead of sleeping.
 */
@Component
public class LoginThrottle {

    private static final int MAX_KEYS = 100_000;
    private static final String ACCOUNT = "account|";
    private static final String ADDRESS = "address|";

    private final IdentityProperties.Login settings;
    private final Clock clock;
    private final TimeMeter time;
    /**
     * Failure buckets and growing delays, at most {@value #MAX_KEYS} keys each. Past that bound Caffeine
     * evicts one key at a time, by how often it is used (W-TinyLFU), so a flood of failures for new
     * e-mail addresses cannot empty the maps and give an account under attack its budget back at once.
     * A bucket untouched for a whole {@code lock-duration} has refilled, the same as no bucket, and is
     * forgotten. Locks are kept until they end.
     */
    private final Cache<String, Bucket> accounts;
    private final Cache<String, Bucket> addresses;
    private final Map<String, Instant> locks = new ConcurrentHashMap<>();
    private final Cache<String, Backoff> backoff = Caffeine.newBuilder().maximumSize(MAX_KEYS).build();

    LoginThrottle(IdentityProperties properties, Clock clock) {
        this.settings = properties.login();
        this.clock = clock;
        this.time = new ClockTimeMeter(clock);
        this.accounts = buckets(settings.lockDuration(), clock);
        this.addresses = buckets(settings.lockDuration(), clock);
    }

    private static Cache<String, Bucket> buckets(Duration refill, Clock clock) {
        return Caffeine.newBuilder().maximumSize(MAX_KEYS).expireAfterAccess(refill)
                .ticker(() -> clock.millis() * 1_000_000L).build();
    }

    /** Whether a login attempt for {@code username} from {@code address} must be refused now. */
    public boolean isBlocked(String username, String address) {
        String account = key(username);
        Instant now = clock.instant();
        if (locked(ACCOUNT + account, now) || locked(ADDRESS + address, now)) {
            return true;
        }
        Backoff b = backoff.getIfPresent(account);
        return b != null && now.isBefore(b.notBefore());
    }

    public void recordFailure(String username, String address) {
        String account = key(username);
        spend(accounts, account, ACCOUNT + account, settings.maxFailuresPerAccount());
        spend(addresses, address, ADDRESS + address, settings.maxFailuresPerAddress());
        backoff.asMap().compute(account, (k, previous) -> {
            int failures = previous == null ? 1 : previous.failures() + 1;
            Instant now = clock.instant();
            Duration delay = failures < 2 || settings.delayBase().isZero() ? Duration.ZERO
                    : settings.delayBase().multipliedBy(1L << Math.min(failures - 2, 10));
            return new Backoff(failures, now.plus(delay));
        });
    }

    /** A successful login forgives the account's failures (not the address's). */
    public void recordSuccess(String username) {
        String account = key(username);
        accounts.invalidate(account);
        locks.remove(ACCOUNT + account);
        backoff.invalidate(account);
    }

    /** Spends one failure of {@code key}; the one that empties its bucket starts a full lock. */
    private void spend(Cache<String, Bucket> map, String key, String lockKey, int capacity) {
        Bucket bucket = map.get(key, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(capacity).refillIntervally(capacity, settings.lockDuration()))
                .withCustomTimePrecision(time)
                .build());
        bucket.tryConsume(1);
        if (bucket.getAvailableTokens() <= 0) {
            if (locks.size() >= MAX_KEYS) {
                locks.values().removeIf(until -> !until.isAfter(clock.instant()));
            }
            locks.put(lockKey, clock.instant().plus(settings.lockDuration()));
            map.asMap().remove(key, bucket);
        }
    }

    private boolean locked(String lockKey, Instant now) {
        Instant until = locks.get(lockKey);
        if (until == null) {
            return false;
        }
        if (now.isBefore(until)) {
            return true;
        }
        locks.remove(lockKey, until);
        return false;
    }

    private static String key(String username) {
        return username == null ? "" : username.strip().toLowerCase(Locale.ROOT);
    }

    private record Backoff(int failures, Instant notBefore) {
    }

    /** Bucket4j's time source backed by the application's clock (wall-clock based, millisecond precision). */
    private record ClockTimeMeter(Clock clock) implements TimeMeter {
        @Override
        public long currentTimeNanos() {
            return clock.millis() * 1_000_000L;
        }

        @Override
        public boolean isWallClockBased() {
            return true;
        }
    }
}
