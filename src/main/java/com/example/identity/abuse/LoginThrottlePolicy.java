package com.example.identity.abuse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import com.example.identity.IdentityProperties;
import com.example.identity.crypto.Secrets;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;

/**
 * The login throttle's policy ({@link LoginThrottle}), at three levels, so that neither a shared address nor a
 * known e-mail address is a lever to lock other people out:
 * <ol>
 * <li><b>The pair</b> (e-mail, source address): after the 2nd failure the next attempt waits a delay
 * that doubles ({@code delay-base}: 1 s, 2 s, 4 s ...); {@code max-failures-per-pair} failures within
 * {@code lock-duration} lock the pair for a whole {@code lock-duration} from the failure that caused it.
 * Only the guesser's own attempts on that account are refused: the owner on another address, and
 * everyone else on the guesser's address, are not.</li>
 * <li><b>The account as a whole</b> (every address): a budget of {@code max-failures-per-account}
 * failures refilled over {@code account-window}; past it, growing delays (doubling from
 * {@code delay-base} up to {@code max-delay}) between attempts. Never a lock.</li>
 * <li><b>The address as a whole</b> (every account): a budget of {@code max-failures-per-address}
 * failures refilled over {@code address-window}; past it, growing delays the same way.</li>
 * </ol>
 * The account-wide and address-wide delays do not apply to a pair that logged in successfully within
 * {@code known-address-ttl} (a "known address" of the account): a stranger hammering a known e-mail
 * from elsewhere, or a neighbour behind the same carrier-grade NAT spraying guesses, cannot keep the
 * owner out of their account from where they usually log in.
 * <p>
 * This is one instance's memory (bounded Caffeine caches), on the application's {@link Clock}; it counts what it
 * is told, here or elsewhere ({@link LoginThrottleReplication}), by account key ({@link #key}), address and pair
 * digest ({@link #pair}).
 */
final class LoginThrottlePolicy {

    /** The most keys each of the throttle's maps holds. */
    static final int MAX_KEYS = 100_000;
    /** The growing delays double at most this many times (2^20 s is far past any {@code max-delay}). */
    private static final int MAX_DOUBLINGS = 20;
    /** Longer "e-mail addresses" are counted by their digest, so a key stays small in memory and in a message. */
    private static final int MAX_ACCOUNT_KEY = 320;

    private final IdentityProperties.Login settings;
    private final Clock clock;
    private final TimeMeter time;
    /** Failure buckets of each pair, and growing delay of each pair; a pair bucket untouched for a window is full. */
    private final Cache<String, Bucket> pairs;
    private final Cache<String, Backoff> pairDelays;
    private final Map<String, Instant> pairLocks = new ConcurrentHashMap<>();
    /** Budgets and growing delays of whole accounts and whole addresses. */
    private final Cache<String, Budget> accounts;
    private final Cache<String, Budget> addresses;
    /**
     * Pairs that logged in successfully within {@code known-address-ttl} of their last success (looking
     * them up does not extend it): exempt from the account-wide and address-wide delays.
     */
    private final Cache<String, Instant> known;

    LoginThrottlePolicy(IdentityProperties.Login settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.time = new ClockTimeMeter(clock);
        this.pairs = cache(settings.lockDuration());
        this.pairDelays = cache(settings.lockDuration());
        this.accounts = cache(settings.accountWindow().plus(settings.maxDelay()));
        this.addresses = cache(settings.addressWindow().plus(settings.maxDelay()));
        this.known = Caffeine.newBuilder().maximumSize(MAX_KEYS).expireAfterWrite(settings.knownAddressTtl())
                .ticker(() -> clock.millis() * 1_000_000L).executor(Runnable::run).build();
    }

    /**
     * Bounded caches: past {@value #MAX_KEYS} keys Caffeine evicts one at a time, by how often each is used
     * (W-TinyLFU), so a flood of new e-mail or source addresses cannot give a key under attack its budget
     * back at once. An entry untouched for {@code idle} has nothing left to say and is forgotten. The caches'
     * upkeep (eviction, expiry) runs on the thread that writes, not on a shared pool whenever it gets to it: what
     * the maps hold then depends only on the calls made and the clock, never on scheduling.
     */
    private <V> Cache<String, V> cache(Duration idle) {
        return Caffeine.newBuilder().maximumSize(MAX_KEYS).expireAfterAccess(idle)
                .ticker(() -> clock.millis() * 1_000_000L).executor(Runnable::run).build();
    }

    /** An account's key: the e-mail address as typed, stripped and lower-cased; a digest if overlong. */
    static String key(String username) {
        String key = username == null ? "" : username.strip().toLowerCase(Locale.ROOT);
        return key.length() <= MAX_ACCOUNT_KEY ? key : "#" + Secrets.sha256Hex(key);
    }

    /** A pair's key, here and in the database: the SHA-256 hex of {@code <account>|<address>}. */
    static String pair(String account, String address) {
        return Secrets.sha256Hex(account + "|" + address);
    }

    /** A lock in force when this instance started ({@link LoginPairs}). */
    void restoreLock(String pair, Instant until) {
        pairLocks.put(pair, until);
    }

    /** A known address in force when this instance started ({@link LoginPairs}). */
    void restoreKnown(String pair, Instant until) {
        known.put(pair, until);
    }

    /**
     * Whether an attempt must be refused now, the attempts under way of its pair, account and address counted
     * as the failures they may turn out to be: refused if they would lock the pair, or make this attempt wait
     * (the pair's delay from its 2nd failure; an account's or an address's delay once its budget is spent, not
     * for a known address).
     */
    boolean blocked(String account, String address, String pair, Instant now, int ofPair, int ofAccount,
            int ofAddress) {
        if (locked(pair, now)) {
            return true;
        }
        Backoff delay = pairDelays.getIfPresent(pair);
        if (delay != null && now.isBefore(delay.notBefore())) {
            return true;
        }
        boolean delays = !settings.delayBase().isZero();
        if (ofPair > 0) {
            Bucket bucket = pairs.getIfPresent(pair);
            long left = bucket == null ? settings.maxFailuresPerPair() : bucket.getAvailableTokens();
            int failures = delay == null ? 0 : delay.failures();
            if (ofPair >= left || delays && failures + ofPair >= 2) {
                return true;
            }
        }
        Instant knownUntil = known.getIfPresent(pair);
        if (knownUntil != null && now.isBefore(knownUntil)) {
            return false;
        }
        return delayed(accounts, account, now) || delayed(addresses, address, now)
                || delays && (spentBy(accounts, account, settings.maxFailuresPerAccount(), ofAccount)
                        || spentBy(addresses, address, settings.maxFailuresPerAddress(), ofAddress));
    }

    /** Whether {@code underWay} failures would spend a key's budget and start its delay. */
    private static boolean spentBy(Cache<String, Budget> budgets, String key, int capacity, int underWay) {
        if (underWay == 0) {
            return false;
        }
        Budget budget = budgets.getIfPresent(key);
        return underWay > (budget == null ? capacity : budget.bucket.getAvailableTokens());
    }

    /**
     * Counts a failure in this instance's memory.
     *
     * @return the failure's pair, and the end of the lock it started if it locked the pair
     */
    Failure failure(String account, String address) {
        String pair = pair(account, address);
        Instant now = clock.instant();
        spend(accounts, account, settings.maxFailuresPerAccount(), settings.accountWindow(), now);
        spend(addresses, address, settings.maxFailuresPerAddress(), settings.addressWindow(), now);
        pairDelays.asMap().compute(pair, (k, previous) -> {
            int failures = previous == null ? 1 : previous.failures() + 1;
            Duration delay = failures < 2 ? Duration.ZERO : grow(failures - 2);
            return new Backoff(failures, now.plus(delay));
        });
        Bucket bucket = pairs.get(pair, k -> Bucket.builder()
                .addLimit(limit -> limit.capacity(settings.maxFailuresPerPair())
                        .refillIntervally(settings.maxFailuresPerPair(), settings.lockDuration()))
                .withCustomTimePrecision(time)
                .build());
        bucket.tryConsume(1);
        if (bucket.getAvailableTokens() > 0) {
            return new Failure(pair, null);
        }
        if (pairLocks.size() >= MAX_KEYS) {
            pairLocks.values().removeIf(until -> !until.isAfter(now));
        }
        Instant until = now.plus(settings.lockDuration());
        pairLocks.put(pair, until);
        pairs.asMap().remove(pair, bucket);
        pairDelays.invalidate(pair);
        return new Failure(pair, until);
    }

    /** A failure counted: its pair, and the end of the lock it started, if it locked the pair. */
    record Failure(String pair, @Nullable Instant lockedUntil) {
    }

    /**
     * A successful login: the pair's failures are forgiven and the pair becomes a known address of the
     * account. The account's and the address's budgets are not given back: a stranger's guesses from
     * elsewhere must not get a fresh budget each time the owner logs in.
     */
    Success success(String account, String address) {
        String pair = pair(account, address);
        pairs.invalidate(pair);
        pairDelays.invalidate(pair);
        boolean wasLocked = pairLocks.remove(pair) != null;
        Instant until = clock.instant().plus(settings.knownAddressTtl());
        Instant before = known.getIfPresent(pair);
        known.put(pair, until);
        return new Success(pair, wasLocked, before, until);
    }

    /** A success counted: its pair, whether it was locked, and until when it was known before and is now. */
    record Success(String pair, boolean wasLocked, @Nullable Instant knownBefore, Instant knownUntil) {
    }

    /** {@code delay-base * 2^doublings}, at most {@code max-delay}; zero when delays are off. */
    private Duration grow(int doublings) {
        if (settings.delayBase().isZero()) {
            return Duration.ZERO;
        }
        Duration delay = settings.delayBase().multipliedBy(1L << Math.min(doublings, MAX_DOUBLINGS));
        return delay.compareTo(settings.maxDelay()) > 0 ? settings.maxDelay() : delay;
    }

    /**
     * Spends one failure of a whole account or address. Within the budget nothing happens; past it, each
     * failure doubles the delay before the next attempt. The doubling starts again only once the budget
     * has refilled completely (the key left alone), so a steady guesser stays at {@code max-delay}.
     */
    private void spend(Cache<String, Budget> budgets, String key, int capacity, Duration window, Instant now) {
        budgets.asMap().compute(key, (k, previous) -> {
            Budget budget = previous != null ? previous : new Budget(Bucket.builder()
                    .addLimit(limit -> limit.capacity(capacity).refillGreedy(capacity, window))
                    .withCustomTimePrecision(time)
                    .build());
            if (budget.bucket.getAvailableTokens() >= capacity) {
                budget.over = 0;
            }
            if (budget.bucket.tryConsume(1)) {
                return budget;
            }
            budget.over++;
            budget.notBefore = now.plus(grow(budget.over - 1));
            return budget;
        });
    }

    private static boolean delayed(Cache<String, Budget> budgets, String key, Instant now) {
        Budget budget = budgets.getIfPresent(key);
        return budget != null && budget.notBefore != null && now.isBefore(budget.notBefore);
    }

    private boolean locked(String pair, Instant now) {
        Instant until = pairLocks.get(pair);
        if (until == null) {
            return false;
        }
        if (now.isBefore(until)) {
            return true;
        }
        pairLocks.remove(pair, until);
        return false;
    }

    private record Backoff(int failures, Instant notBefore) {
    }

    /** A key's failure budget and, once it is spent, its growing delay (guarded by the cache's compute). */
    private static final class Budget {
        final Bucket bucket;
        volatile int over;
        volatile Instant notBefore;

        Budget(Bucket bucket) {
            this.bucket = bucket;
        }
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
