package com.example.identity.abuse;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.BiConsumer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.common.CacheInvalidation;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.local.LocalBucketBuilder;

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
 *     ({@code requests-per-second}, default 5000);</li>
 * <li>{@link #sharedBudget}: a feature's own budget per address, with its own setting (the guests one address may
 *     make at {@code /oauth/invitado.php} in an hour, {@code identity.guests.per-address-hour}, decisions §24).</li>
 * </ul>
 * Addresses are keyed by {@link ClientAddress}. Each key costs one cache entry. A bucket left alone for its
 * whole refill period is full again, the same as no bucket, so it is forgotten then; and each cache holds
 * at most {@value #MAX_KEYS} keys, so an attacker cycling keys cannot exhaust memory. Past that bound
 * Caffeine evicts one key at a time, as few as the bound needs, preferring the least used (W-TinyLFU): a flood
 * of new keys cannot empty the cache and hand every spent budget back at once. Which keys go is Caffeine's
 * estimate, not a promise: a key in steady use usually stays, but may go. That costs nothing a flood did not
 * already have: the keys are source addresses, so a flood that evicts N keys comes from N addresses, each with
 * a full budget of its own.
 *
 * <p>Several instances: the failure budgets and the shared budgets count as one (decisions §13). Each failure is spent here and
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
     * device code's lifetime. That budget is kept in the database, not here ({@code deviceflow/UserCodeGuesses}):
     * it must be taken atomically before each lookup, on every instance at once.
     */
    public static final Duration USER_CODE_PERIOD = Duration.ofMinutes(10);

    private final IdentityProperties.RateLimit settings;
    private final Time time;
    private final Cache<String, Bucket> tokenFailures;
    private final Cache<String, Bucket> unknownTokens;
    private final Cache<String, Bucket> requests;
    private final Cache<String, Bucket> recoveryRequests;

    /** Topic of the failures other instances spent: {@code <budget> <address>}. */
    static final String FAILURES = "rate-failure";
    /** Topic of what other instances took from a {@link SharedBudget}: {@code <name> <address>}. */
    static final String TAKEN = "rate-taken";

    /** The {@link SharedBudget}s of this instance, by name. */
    private final Map<String, SharedBudget> shared = new ConcurrentHashMap<>();

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
        cluster.subscribe(TAKEN, this::takenElsewhere);
    }

    RateLimits(IdentityProperties properties, BiConsumer<String, String> toOthers) {
        this(properties, toOthers, Time.SYSTEM);
    }

    RateLimits(IdentityProperties properties, BiConsumer<String, String> toOthers, Time time) {
        this.settings = properties.rateLimit();
        this.toOthers = toOthers;
        this.time = time;
        this.tokenFailures = buckets(Duration.ofMinutes(1));
        this.unknownTokens = buckets(Duration.ofMinutes(1));
        this.requests = buckets(Duration.ofSeconds(1));
        this.recoveryRequests = buckets(RECOVERY_PERIOD);
    }

    /**
     * The clock the buckets refill by and the caches expire by, and where the caches do their upkeep (Caffeine's
     * eviction and expiry): the system's nanosecond clock and Caffeine's own background pool in the service; a
     * clock a test moves and the calling thread in tests, so what a test sees does not depend on scheduling.
     */
    record Time(Ticker ticker, Executor upkeep) {
        static final Time SYSTEM = new Time(Ticker.systemTicker(), ForkJoinPool.commonPool());
    }

    /** What another instance took from one of the {@link SharedBudget}s. */
    void takenElsewhere(String message) {
        int space = message.indexOf(' ');
        SharedBudget budget = shared.get(message.substring(0, space));
        if (budget != null) {
            budget.spend(message.substring(space + 1));
        }
    }

    /**
     * A budget of a feature's own, per address: {@code capacity} takes per {@code period}, refilled gradually (a
     * token bucket), counted as one on every instance like the failure budgets (each take is sent to the others),
     * whatever {@code identity.rate-limit.enabled} says (the feature's setting is its switch). Every instance
     * makes the same budgets at start, under the same names.
     */
    public SharedBudget sharedBudget(String name, int capacity, Duration period) {
        if (name.contains(" ")) {
            throw new IllegalArgumentException("a budget's name has no space");
        }
        return shared.computeIfAbsent(name, n -> new SharedBudget(n, capacity, period));
    }

    /** One {@link #sharedBudget}: what one address may still take. */
    public final class SharedBudget {

        private final String name;
        private final int capacity;
        private final Duration period;
        private final Cache<String, Bucket> buckets;

        private SharedBudget(String name, int capacity, Duration period) {
            this.name = name;
            this.capacity = capacity;
            this.period = period;
            this.buckets = RateLimits.this.buckets(period);
        }

        private Bucket bucket(String address) {
            return buckets.get(address, k -> RateLimits.this.bucket()
                    .addLimit(limit -> limit.capacity(capacity).refillGreedy(capacity, period))
                    .build());
        }

        /**
         * Takes one for {@code address}: 0 when it was taken (and every other instance is told), else the seconds
         * to wait ({@code Retry-After}) and nothing is taken.
         */
        public long take(String address) {
            var probe = bucket(address).tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                return seconds(probe.getNanosToWaitForRefill());
            }
            toOthers.accept(TAKEN, name + " " + address);
            return 0;
        }

        /** Seconds until {@code address} may take again, or 0 when it may now; nothing is taken. */
        public long blockedFor(String address) {
            Bucket bucket = buckets.getIfPresent(address);
            if (bucket == null || bucket.getAvailableTokens() > 0) {
                return 0;
            }
            return seconds(bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill());
        }

        /** One taken on another instance. */
        void spend(String address) {
            bucket(address).tryConsume(1);
        }
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
        cache(budget).get(address, k -> bucket()
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
        var probe = requests.get(caller, k -> bucket()
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

    private LocalBucketBuilder bucket() {
        return Bucket.builder().withCustomTimePrecision(new TimeMeter() {
            @Override
            public long currentTimeNanos() {
                return time.ticker().read();
            }

            @Override
            public boolean isWallClockBased() {
                return false;
            }
        });
    }

    private Cache<String, Bucket> buckets(Duration refill) {
        return Caffeine.newBuilder().maximumSize(MAX_KEYS).expireAfterAccess(refill)
                .ticker(time.ticker()).executor(time.upkeep()).build();
    }

    /** Runs the caches' pending upkeep now (evictions past {@value #MAX_KEYS}, expiries); for tests. */
    void cleanUp() {
        for (Budget budget : Budget.values()) {
            cache(budget).cleanUp();
        }
        requests.cleanUp();
    }

    /** Whether {@code budget} has a bucket for {@code address}, without touching it; for tests. */
    boolean isRemembered(Budget budget, String address) {
        return cache(budget).asMap().containsKey(address);
    }

    /** How many keys {@code budget} remembers (after {@link #cleanUp}); for tests. */
    long keys(Budget budget) {
        return cache(budget).estimatedSize();
    }
}
