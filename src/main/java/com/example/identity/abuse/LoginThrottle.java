package com.example.identity.abuse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import com.example.identity.IdentityProperties;
import com.example.identity.account.PasswordChanged;
import com.example.identity.account.PasswordCheckFailed;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.CacheInvalidation;
import com.example.identity.crypto.Secrets;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;

/**
 * Brute-force protection of the login form (decisions §3), at three levels, so that neither a shared
 * address nor a known e-mail address is a lever to lock other people out:
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
 * Refused attempts are not counted and cost no password hashing. E-mail addresses are counted whether
 * the account exists or not, so the answer says nothing about which accounts exist. Everything runs
 * on the application's {@link Clock}, so tests move time instead of sleeping.
 * <p>
 * <b>One unit taken before the proof is checked</b> (issue 25). Whatever checks a proof of an account (a
 * password, a second step's code) first takes an {@link Attempt} with {@link #tryAcquire(String, String)}:
 * atomically, it refuses the attempt if the attempts already under way, should they all fail, would lock the
 * pair or make this attempt wait (the pair's delay, or the account's or the address's delay unless the pair is
 * a known address); else it holds one unit of each budget until the proof is checked. Then exactly one of:
 * <ul>
 * <li>{@link Attempt#failed()}: a wrong proof; the unit stays spent as one failure (as
 * {@link #recordFailure(String, String)}), counted once however often it is called;</li>
 * <li>{@link Attempt#succeeded()}: a whole login; the unit is given back and the pair forgiven (as
 * {@link #recordSuccess(String, String)});</li>
 * <li>{@link Attempt#close()}: neither (a right password before the second step, hashing too busy, an error):
 * the unit is given back and nothing is counted; after either of the others it does nothing.</li>
 * </ul>
 * So simultaneous guesses of one pair get no more evaluations than the budget: 5 without the delays, 2 with them
 * (the 2nd failure delays the next attempt). {@link LoginThrottleFilter} takes the attempt of the login form and
 * of the account forms and keeps it as the request's {@link #attemptOf}; the failure and success handlers, and
 * the {@link PasswordCheckFailed} and {@link PasswordChanged} listeners here, settle it with
 * {@link #recordFailure(HttpServletRequest, String)} and {@link #recordSuccess(HttpServletRequest, String)}. A
 * page that checks a proof itself (mfa/SecondStepController) does it with try-with-resources:
 * <pre>{@code
 * try (LoginThrottle.Attempt attempt = throttle.tryAcquire(email, LoginThrottle.addressOf(request))) {
 *     if (attempt == null) { ... refused: "Demasiados intentos", 429 ... }
 *     if (!proofHolds) { boolean locked = attempt.failed(); ... }
 *     else { attempt.succeeded(); ... }   // or nothing (closed) if the login is not whole yet
 * }
 * }</pre>
 * Attempts under way are held in this instance's memory: the units are atomic on one instance; simultaneous
 * attempts spread over several instances are each held on their own, and their failures reach the others as
 * below. An attempt left neither settled nor closed (a bug) stops holding its unit after
 * {@link #ATTEMPT_TTL}.
 * <p>
 * Several instances count as one (decisions §13): every failure and every success is applied here and
 * sent to every other instance ({@link CacheInvalidation#publish}, PostgreSQL NOTIFY, delivered within
 * milliseconds), which applies it to its own copy of the state; so five failures spread over two instances
 * lock the pair on both, and a check never waits for the database. The state is in memory (bounded
 * Caffeine caches) on each instance. What must outlive an instance, a pair's lock and a pair's known
 * address, is also written to the database ({@link LoginPairs}) by the instance where it happened and
 * read by every instance at start, so a restarted or new instance knows them; failures counted towards a
 * lock or a delay are known to the instances running when they happen. Pairs are kept as digests.
 */
@Component
public class LoginThrottle {

    private static final Logger log = LoggerFactory.getLogger(LoginThrottle.class);
    private static final int MAX_KEYS = 100_000;
    /** The growing delays double at most this many times (2^20 s is far past any {@code max-delay}). */
    private static final int MAX_DOUBLINGS = 20;

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
    /**
     * Attempts refused under a lock or a delay since the last {@link #flushRefused}, per account as the
     * audit trail may name it ({@link AuditEvent#attemptedAccount}): counted, not written one row each.
     */
    private final Map<String, AtomicLong> refused = new ConcurrentHashMap<>();
    private final ApplicationEventPublisher events;
    /** Sends a topic's message to every other instance. */
    private final BiConsumer<String, String> toOthers;
    /** Where locks and known addresses last; null in unit tests (memory only). */
    private final @Nullable LoginPairs lasting;
    /**
     * The attempts taken and not yet settled nor closed, oldest first; guarded by itself, which makes taking
     * an attempt (the check and the unit) one step.
     */
    private final Set<Attempt> underWay = new LinkedHashSet<>();

    /** How long an attempt holds its unit at most, should it never be settled nor closed. */
    static final Duration ATTEMPT_TTL = Duration.ofMinutes(1);
    /** The request attribute that holds the request's {@link Attempt} ({@link LoginThrottleFilter}). */
    static final String ATTEMPT = LoginThrottle.class.getName() + ".attempt";

    /** Topics of what other instances count: {@code <length of address>:<address><account>}. */
    static final String FAILURES = "login-failure";
    static final String SUCCESSES = "login-success";
    /** Longer "e-mail addresses" are counted by their digest, so a key stays small in memory and in a message. */
    private static final int MAX_ACCOUNT_KEY = 320;

    /** One instance alone, in memory (unit tests). */
    LoginThrottle(IdentityProperties properties, Clock clock, ApplicationEventPublisher events) {
        this(properties, clock, events, (topic, message) -> {
        }, null);
    }

    /**
     * One of the instances on the database: what it counts, they count, and the other way round; it starts
     * with the locks and known addresses in force.
     */
    @Autowired
    LoginThrottle(IdentityProperties properties, Clock clock, ApplicationEventPublisher events,
            CacheInvalidation cluster, LoginPairs lasting) {
        this(properties, clock, events, cluster::publish, lasting);
        cluster.subscribe(FAILURES, this::failureElsewhere);
        cluster.subscribe(SUCCESSES, this::successElsewhere);
    }

    LoginThrottle(IdentityProperties properties, Clock clock, ApplicationEventPublisher events,
            BiConsumer<String, String> toOthers, @Nullable LoginPairs lasting) {
        this.toOthers = toOthers;
        this.lasting = lasting;
        this.settings = properties.login();
        this.clock = clock;
        this.events = events;
        this.time = new ClockTimeMeter(clock);
        this.pairs = cache(settings.lockDuration());
        this.pairDelays = cache(settings.lockDuration());
        this.accounts = cache(settings.accountWindow().plus(settings.maxDelay()));
        this.addresses = cache(settings.addressWindow().plus(settings.maxDelay()));
        this.known = Caffeine.newBuilder().maximumSize(MAX_KEYS).expireAfterWrite(settings.knownAddressTtl())
                .ticker(() -> clock.millis() * 1_000_000L).build();
        if (lasting != null) {
            Instant now = clock.instant();
            for (LoginPairs.Pair pair : lasting.current(now, MAX_KEYS)) {
                if (pair.lockedUntil() != null && pair.lockedUntil().isAfter(now)) {
                    pairLocks.put(pair.digest(), pair.lockedUntil());
                }
                if (pair.knownUntil() != null && pair.knownUntil().isAfter(now)) {
                    known.put(pair.digest(), pair.knownUntil());
                }
            }
        }
    }

    /**
     * Bounded caches: past {@value #MAX_KEYS} keys Caffeine evicts one at a time, by how often each is used
     * (W-TinyLFU), so a flood of new e-mail or source addresses cannot give a key under attack its budget
     * back at once. An entry untouched for {@code idle} has nothing left to say and is forgotten.
     */
    private <V> Cache<String, V> cache(Duration idle) {
        return Caffeine.newBuilder().maximumSize(MAX_KEYS).expireAfterAccess(idle)
                .ticker(() -> clock.millis() * 1_000_000L).build();
    }

    /**
     * The source address an attempt is counted against, as every limit keys it ({@link ClientAddress}: behind
     * a trusted proxy only, IPv6 by its /64). The one place the login throttle reads it.
     */
    public static String addressOf(HttpServletRequest request) {
        return ClientAddress.key(request);
    }

    /**
     * Whether a login attempt for {@code username} from {@code address} must be refused now, by the failures
     * counted (the attempts under way left out: {@link #tryAcquire} counts them).
     */
    public boolean isBlocked(String username, String address) {
        String account = key(username);
        return blocked(account, address, pair(account, address), clock.instant(), 0, 0, 0);
    }

    /**
     * Whether an attempt must be refused now, the attempts under way of its pair, account and address counted
     * as the failures they may turn out to be: refused if they would lock the pair, or make this attempt wait
     * (the pair's delay from its 2nd failure; an account's or an address's delay once its budget is spent, not
     * for a known address).
     */
    private boolean blocked(String account, String address, String pair, Instant now, int ofPair, int ofAccount,
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
     * {@link #isBlocked} that also counts a refusal, for the audit trail's "refused N times" row. A check
     * only: a page that goes on to check a proof takes its unit with {@link #tryAcquire} instead, or
     * simultaneous guesses all pass this check before the first is counted.
     *
     * @return whether the attempt is refused
     */
    public boolean refuse(String username, String address) {
        if (!isBlocked(username, address)) {
            return false;
        }
        countRefusal(username);
        return true;
    }

    /**
     * Takes one unit of every budget for an attempt of {@code username} from {@code address}, before its proof
     * is checked (see the class comment): null when the attempt is refused, the refusal counted for the audit
     * trail as {@link #refuse} counts it. The caller settles or closes the attempt.
     */
    public @Nullable Attempt tryAcquire(String username, String address) {
        String account = key(username);
        String pair = pair(account, address);
        synchronized (underWay) {
            Instant now = clock.instant();
            int ofPair = 0;
            int ofAccount = 0;
            int ofAddress = 0;
            for (Iterator<Attempt> i = underWay.iterator(); i.hasNext();) {
                Attempt other = i.next();
                if (!other.taken.plus(ATTEMPT_TTL).isAfter(now)) {
                    i.remove();
                    continue;
                }
                ofPair += other.pair.equals(pair) ? 1 : 0;
                ofAccount += other.account.equals(account) ? 1 : 0;
                ofAddress += other.address.equals(address) ? 1 : 0;
            }
            if (!blocked(account, address, pair, now, ofPair, ofAccount, ofAddress)) {
                Attempt attempt = new Attempt(account, address, pair, now);
                underWay.add(attempt);
                return attempt;
            }
        }
        countRefusal(username);
        return null;
    }

    /**
     * {@link #tryAcquire(String, String)} for this request's address, kept as the request's attempt
     * ({@link #attemptOf}), so that a wrong password found by a service further down ({@link PasswordCheckFailed})
     * settles this attempt instead of counting a second failure (mfa/SecondStepController's enrolment).
     */
    public @Nullable Attempt tryAcquire(HttpServletRequest request, String username) {
        Attempt attempt = tryAcquire(username, addressOf(request));
        if (attempt != null) {
            request.setAttribute(ATTEMPT, attempt);
        }
        return attempt;
    }

    /** The attempt {@link LoginThrottleFilter} (or {@link #tryAcquire(HttpServletRequest, String)}) took for this request, if any. */
    public static @Nullable Attempt attemptOf(HttpServletRequest request) {
        return request.getAttribute(ATTEMPT) instanceof Attempt attempt ? attempt : null;
    }

    /**
     * A wrong proof of {@code username} in this request: the request's attempt of that account fails (its unit
     * stays spent), or, without one, a failure is recorded as {@link #recordFailure(String, String)} does.
     *
     * @return whether this failure locked the pair
     */
    public boolean recordFailure(HttpServletRequest request, String username) {
        Attempt attempt = attemptOf(request);
        if (attempt != null && attempt.isOpenFor(key(username))) {
            return attempt.failed();
        }
        return recordFailure(username, addressOf(request));
    }

    /**
     * A whole login of {@code username} in this request: the request's attempt of that account succeeds (its
     * unit given back), or, without one, a success is recorded as {@link #recordSuccess(String, String)} does.
     */
    public void recordSuccess(HttpServletRequest request, String username) {
        Attempt attempt = attemptOf(request);
        if (attempt != null && attempt.isOpenFor(key(username))) {
            attempt.succeeded();
        }
        else {
            recordSuccess(username, addressOf(request));
        }
    }

    private void countRefusal(String username) {
        String actor = AuditEvent.attemptedAccount(username);
        if (refused.size() < MAX_KEYS || refused.containsKey(actor)) {
            refused.computeIfAbsent(actor, k -> new AtomicLong()).incrementAndGet();
        } else {
            refused.computeIfAbsent(AuditEvent.attemptedAccount(null), k -> new AtomicLong()).incrementAndGet();
        }
    }

    /**
     * Writes the refusals counted since the last run: one audit row per account with the count. Runs every
     * minute; with several instances each writes its own count (issue 15).
     */
    @Scheduled(fixedDelayString = "PT1M", initialDelayString = "PT1M")
    public void flushRefused() {
        for (String actor : refused.keySet()) {
            AtomicLong count = refused.remove(actor);
            if (count != null && count.get() > 0) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_REFUSED, count.get() + " intentos rechazados",
                        actor));
            }
        }
    }

    /**
     * A failed login.
     *
     * @return whether this failure locked the pair (a new lock starts)
     */
    public boolean recordFailure(String username, String address) {
        String account = key(username);
        toOthers.accept(FAILURES, message(account, address));
        return lastingLock(failure(account, address));
    }

    /** A failure another instance counted. */
    void failureElsewhere(String message) {
        fromMessage(message, this::failure);
    }

    /** A success another instance saw. */
    void successElsewhere(String message) {
        fromMessage(message, (account, address) -> success(account, address, false));
    }

    private static String message(String account, String address) {
        return address.length() + ":" + address + account;
    }

    /** The account and address of a {@link #message}. */
    private static void fromMessage(String message, BiConsumer<String, String> accountAndAddress) {
        int colon = message.indexOf(':');
        int end = colon + 1 + Integer.parseInt(message.substring(0, colon));
        accountAndAddress.accept(message.substring(end), message.substring(colon + 1, end));
    }

    /**
     * Counts a failure in this instance's memory.
     *
     * @return the pair's lock when this failure locked it, else null
     */
    private @Nullable PairLock failure(String account, String address) {
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
            return null;
        }
        if (pairLocks.size() >= MAX_KEYS) {
            pairLocks.values().removeIf(until -> !until.isAfter(now));
        }
        Instant until = now.plus(settings.lockDuration());
        pairLocks.put(pair, until);
        pairs.asMap().remove(pair, bucket);
        pairDelays.invalidate(pair);
        return new PairLock(pair, until);
    }

    /**
     * Stores the lock a failure seen here made, if any, for instances started later.
     *
     * @return whether there was one
     */
    private boolean lastingLock(@Nullable PairLock lock) {
        if (lock == null) {
            return false;
        }
        last(() -> lasting.lock(lock.pair(), lock.until()));
        return true;
    }

    private record PairLock(String pair, Instant until) {
    }

    /**
     * A successful login: the pair's failures are forgiven and the pair becomes a known address of the
     * account. The account's and the address's budgets are not given back: a stranger's guesses from
     * elsewhere must not get a fresh budget each time the owner logs in.
     */
    public void recordSuccess(String username, String address) {
        String account = key(username);
        toOthers.accept(SUCCESSES, message(account, address));
        success(account, address, true);
    }

    private void success(String account, String address, boolean here) {
        String pair = pair(account, address);
        pairs.invalidate(pair);
        pairDelays.invalidate(pair);
        boolean wasLocked = pairLocks.remove(pair) != null;
        Instant until = clock.instant().plus(settings.knownAddressTtl());
        Instant before = known.getIfPresent(pair);
        known.put(pair, until);
        // one write per pair a day at most (and at once after a lock), not one per login
        if (here && (wasLocked || before == null || until.isAfter(before.plus(Duration.ofDays(1))))) {
            last(() -> lasting.known(pair, until));
        }
    }

    /** Writes what lasts; the database being away costs the record, never the login's answer. */
    private void last(Runnable write) {
        if (lasting == null) {
            return;
        }
        try {
            write.run();
        }
        catch (DataAccessException e) {
            log.warn("Login throttle: a lock or known address was not stored ({}); it holds in memory",
                    e.getClass().getSimpleName());
        }
    }

    /**
     * A wrong current password at a form that confirms a change with it (the password, the e-mail address,
     * the second factor, a new passkey): a failed login of that account from here.
     */
    @EventListener
    void onPasswordCheckFailed(PasswordCheckFailed event) {
        HttpServletRequest request = currentRequest();
        if (request != null && recordFailure(request, event.correo())) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_LOCKED, null, event.correo()));
        }
    }

    /** A password changed, proving the current one: as a successful login of that account from here. */
    @EventListener
    void onPasswordChanged(PasswordChanged event) {
        HttpServletRequest request = currentRequest();
        if (request != null) {
            recordSuccess(request, event.correo());
        }
    }

    private static HttpServletRequest currentRequest() {
        return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
                ? attributes.getRequest() : null;
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

    private static String key(String username) {
        String key = username == null ? "" : username.strip().toLowerCase(Locale.ROOT);
        return key.length() <= MAX_ACCOUNT_KEY ? key : "#" + Secrets.sha256Hex(key);
    }

    /** A pair's key, here and in the database: the SHA-256 hex of {@code <account>|<address>}. */
    static String pair(String account, String address) {
        return Secrets.sha256Hex(account + "|" + address);
    }

    /**
     * One unit of every budget that applies to an attempt, taken by {@link #tryAcquire} before the attempt's
     * proof is checked; settled once by {@link #failed} or {@link #succeeded}, or given back by {@link #close}.
     */
    public final class Attempt implements AutoCloseable {
        private final String account;
        private final String address;
        private final String pair;
        private final Instant taken;
        /** Guarded by {@link #underWay}. */
        private boolean open = true;

        private Attempt(String account, String address, String pair, Instant taken) {
            this.account = account;
            this.address = address;
            this.pair = pair;
            this.taken = taken;
        }

        /**
         * The proof was wrong: the unit stays spent, one failure of the pair, the account and the address (as
         * {@link LoginThrottle#recordFailure(String, String)}, told to the other instances). Once only: called
         * again, or after {@link #succeeded} or {@link #close}, it counts nothing.
         *
         * @return whether this failure locked the pair (a new lock starts)
         */
        public boolean failed() {
            PairLock lock;
            synchronized (underWay) {
                if (!open) {
                    return false;
                }
                open = false;
                // counted before the unit is let go, in one step: no attempt taken meanwhile sees neither
                lock = failure(account, address);
                underWay.remove(this);
            }
            toOthers.accept(FAILURES, message(account, address));
            return lastingLock(lock);
        }

        /**
         * The login is whole: the unit is given back, and the pair forgiven and made a known address (as
         * {@link LoginThrottle#recordSuccess(String, String)}). Once only, like {@link #failed}.
         */
        public void succeeded() {
            if (release()) {
                toOthers.accept(SUCCESSES, message(account, address));
                success(account, address, true);
            }
        }

        /** Gives the unit back without counting anything, unless the attempt was settled already. */
        @Override
        public void close() {
            release();
        }

        /** Whether this attempt is still open and of that account (an account's key). */
        boolean isOpenFor(String accountKey) {
            synchronized (underWay) {
                return open && account.equals(accountKey);
            }
        }

        private boolean release() {
            synchronized (underWay) {
                if (!open) {
                    return false;
                }
                open = false;
                underWay.remove(this);
                return true;
            }
        }
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
