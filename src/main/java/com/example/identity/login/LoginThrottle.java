package com.example.identity.login;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;

import io.github.bucket4j.Bucket;

/**
 * Brute-force protection of the login form (decisions §3). Failures are counted per e-mail address
 * (known or not, so the answer says nothing about which accounts exist) and per source address, in
 * Bucket4j buckets that empty after {@code max-failures-*} failures and fill up again after
 * {@code lock-duration}: an empty bucket is a lock. Before that, failures of an account slow it down:
 * after the second, the next attempt is refused until a delay has passed that doubles each time.
 * Attempts are refused without checking the password, so a locked account costs no hashing.
 */
@Component
public class LoginThrottle {

    private static final int MAX_KEYS = 100_000;

    private final IdentityProperties.Login settings;
    private final Clock clock;
    private final Map<String, Bucket> accounts = new ConcurrentHashMap<>();
    private final Map<String, Bucket> addresses = new ConcurrentHashMap<>();
    private final Map<String, Backoff> backoff = new ConcurrentHashMap<>();

    LoginThrottle(IdentityProperties properties, Clock clock) {
        this.settings = properties.login();
        this.clock = clock;
    }

    /** Whether a login attempt for {@code username} from {@code address} must be refused now. */
    public boolean isBlocked(String username, String address) {
        String account = key(username);
        if (empty(accounts.get(account)) || empty(addresses.get(address))) {
            return true;
        }
        Backoff b = backoff.get(account);
        return b != null && clock.instant().isBefore(b.notBefore());
    }

    public void recordFailure(String username, String address) {
        String account = key(username);
        bucket(accounts, account, settings.maxFailuresPerAccount()).tryConsume(1);
        bucket(addresses, address, settings.maxFailuresPerAddress()).tryConsume(1);
        if (backoff.size() >= MAX_KEYS) {
            backoff.clear();
        }
        backoff.compute(account, (k, previous) -> {
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
        accounts.remove(account);
        backoff.remove(account);
    }

    private Bucket bucket(Map<String, Bucket> map, String key, int capacity) {
        if (map.size() >= MAX_KEYS && !map.containsKey(key)) {
            map.clear();
        }
        return map.computeIfAbsent(key, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(capacity).refillIntervally(capacity, settings.lockDuration()))
                .build());
    }

    private static boolean empty(Bucket bucket) {
        return bucket != null && bucket.getAvailableTokens() <= 0;
    }

    private static String key(String username) {
        return username == null ? "" : username.strip().toLowerCase(Locale.ROOT);
    }

    private record Backoff(int failures, Instant notBefore) {
    }
}
