package com.example.identity.abuse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BiConsumer;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.account.PasswordChanged;
import com.example.identity.account.PasswordCheckFailed;
import com.example.identity.common.CacheInvalidation;

/**
 * Brute-force protection of the login form (decisions §3), at three levels, so that neither a shared
 * address nor a known e-mail address is a lever to lock other people out: the pair (e-mail, source address),
 * locked after {@code max-failures-per-pair} failures and delayed from its 2nd; the account as a whole and the
 * address as a whole, each with a budget past which growing delays apply, not to a pair that logged in
 * successfully lately (a "known address"). {@link LoginThrottlePolicy} tells the levels in full.
 * <p>
 * Refused attempts are not counted and cost no password hashing. E-mail addresses are counted whether
 * the account exists or not, so the answer says nothing about which accounts exist. Everything runs
 * on the application's {@link Clock}, so tests move time instead of sleeping.
 * <p>
 * <b>One unit taken before the proof is checked</b> (issue 25). Whatever checks a proof of an account (a
 * password, a second step's code) first takes an {@link Attempt} with {@link #tryAcquire(String, String)}:
 * atomically, it refuses the attempt if the failures counted lock the pair or make it wait; if the attempts
 * already under way, should they all fail, would do so, it waits its turn in the pair's short queue (issue 39:
 * {@link #QUEUE}, refused when full or after its longest wait) until one of them is settled; else it holds one
 * unit of each budget until the proof is checked. Then exactly one of:
 * <ul>
 * <li>{@link Attempt#failed()}: a wrong proof; the unit stays spent as one failure (as
 * {@link #recordFailure(String, String)}), counted once however often it is called;</li>
 * <li>{@link Attempt#succeeded()}: a whole login; the unit is given back and the pair forgiven (as
 * {@link #recordSuccess(String, String)});</li>
 * <li>{@link Attempt#close()}: neither (a right password before the second step, hashing too busy, an error):
 * the unit is given back and nothing is counted; after either of the others it does nothing.</li>
 * </ul>
 * So simultaneous guesses of one pair get no more evaluations than the budget: 5 without the delays, 2 with them
 * (the 2nd failure delays the next attempt), while simultaneous right passwords of one pair all get in, a few at a
 * time. {@link LoginThrottleFilter} takes the attempt of the login form and
 * of the account forms and keeps it as the request's {@link #attemptOf}; the failure and success handlers, and
 * the {@link PasswordCheckFailed} and {@link PasswordChanged} listeners ({@link LoginThrottleAccountEvents}), settle it with
 * {@link #recordFailure(HttpServletRequest, String)} and {@link #recordSuccess(HttpServletRequest, String)}. A
 * page that checks a proof itself (signin/SecondStepController) does it with try-with-resources:
 * <pre>{@code
 * try (LoginThrottle.Attempt attempt = throttle.tryAcquire(email, LoginThrottle.addressOf(request))) {
 *     if (attempt == null) { ... refused: "Demasiados intentos", 429 ... }
 *     if (!proofHolds) { boolean locked = attempt.failed(); ... }
 *     else { attempt.succeeded(); ... }   // or nothing (closed) if the login is not whole yet
 * }
 * }</pre>
 * Attempts under way are held in this instance's memory ({@link LoginThrottleAttempts}). Several instances
 * count as one ({@link LoginThrottleReplication}): every failure and every success is applied here and sent to
 * every other instance; a pair's lock and known address also outlive the instance ({@link LoginPairs}). The
 * refused attempts are counted for the audit trail ({@link LoginThrottleRefusals}).
 * <p>
 * This class is the one callers use and ties those parts together: a failure or success recorded here is told to
 * the other instances, then counted by the policy, then stored if it must last; an attempt's failure is counted
 * first (before its unit is let go, in one step), then told and stored.
 */
@Component
public class LoginThrottle {

    /** How long an attempt holds its unit at most, should it never be settled nor closed. */
    static final Duration ATTEMPT_TTL = Duration.ofMinutes(1);
    /**
     * The attempts that may wait their turn (issue 39): 16 per pair (a family behind one router, a studio's test
     * bots on one account), 64 on an instance altogether, each 10 seconds at most (a dozen Argon2id hashes of one
     * pair, one or two at a time, take well under that on two busy cores); past them, refused as before.
     */
    static final LoginThrottleAttempts.Queue QUEUE = new LoginThrottleAttempts.Queue(16, 64, Duration.ofSeconds(10));
    /** The request attribute that holds the request's {@link Attempt} ({@link LoginThrottleFilter}). */
    static final String ATTEMPT = LoginThrottle.class.getName() + ".attempt";

    private final Clock clock;
    private final LoginThrottlePolicy policy;
    private final LoginThrottleAttempts attempts;
    private final LoginThrottleReplication replication;
    private final LoginThrottleRefusals refusals;

    /** One instance alone, in memory, where nothing waits (unit tests of the policy). */
    LoginThrottle(IdentityProperties properties, Clock clock, ApplicationEventPublisher events) {
        this(properties, clock, events, (topic, message) -> {
        }, null);
    }

    /** One instance alone, in memory, with its queue (unit tests of the waiting). */
    LoginThrottle(IdentityProperties properties, Clock clock, ApplicationEventPublisher events,
            LoginThrottleAttempts.Queue queue) {
        this(properties, clock, events, (topic, message) -> {
        }, null, queue);
    }

    /**
     * One of the instances on the database: what it counts, they count, and the other way round; it starts
     * with the locks and known addresses in force.
     */
    @Autowired
    LoginThrottle(IdentityProperties properties, Clock clock, ApplicationEventPublisher events,
            CacheInvalidation cluster, LoginPairs lasting) {
        this(properties, clock, events, cluster::publish, lasting, QUEUE);
        replication.subscribe(cluster);
    }

    LoginThrottle(IdentityProperties properties, Clock clock, ApplicationEventPublisher events,
            BiConsumer<String, String> toOthers, @Nullable LoginPairs lasting) {
        this(properties, clock, events, toOthers, lasting, LoginThrottleAttempts.Queue.NONE);
    }

    private LoginThrottle(IdentityProperties properties, Clock clock, ApplicationEventPublisher events,
            BiConsumer<String, String> toOthers, @Nullable LoginPairs lasting, LoginThrottleAttempts.Queue queue) {
        this.clock = clock;
        this.policy = new LoginThrottlePolicy(properties.login(), clock);
        this.attempts = new LoginThrottleAttempts(policy, clock, queue);
        this.replication = new LoginThrottleReplication(policy, toOthers, lasting, attempts::policyChanged);
        this.refusals = new LoginThrottleRefusals(events);
        replication.restore(clock);
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
        String account = LoginThrottlePolicy.key(username);
        return policy.blocked(account, address, LoginThrottlePolicy.pair(account, address), clock.instant(), 0, 0, 0);
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
        refusals.count(username);
        return true;
    }

    /**
     * Takes one unit of every budget for an attempt of {@code username} from {@code address}, before its proof
     * is checked (see the class comment), waiting its turn while only attempts under way stand in its way
     * ({@link LoginThrottleAttempts}: at most {@link #QUEUE}'s bounds): null when the attempt is refused, the
     * refusal counted for the audit trail as {@link #refuse} counts it. The caller settles or closes the attempt.
     */
    public @Nullable Attempt tryAcquire(String username, String address) {
        String account = LoginThrottlePolicy.key(username);
        String pair = LoginThrottlePolicy.pair(account, address);
        Attempt attempt = attempts.take(account, address, pair, now -> new Attempt(account, address, pair, now));
        if (attempt == null) {
            refusals.count(username);
        }
        return attempt;
    }

    /**
     * {@link #tryAcquire(String, String)} for this request's address, kept as the request's attempt
     * ({@link #attemptOf}), so that a wrong password found by a service further down ({@link PasswordCheckFailed})
     * settles this attempt instead of counting a second failure (signin/SecondStepController's enrolment).
     */
    public @Nullable Attempt tryAcquire(HttpServletRequest request, String username) {
        Attempt attempt = tryAcquire(username, addressOf(request));
        if (attempt != null) {
            request.setAttribute(ATTEMPT, attempt);
        }
        return attempt;
    }

    /** The attempts of {@code username} from {@code address} waiting their turn now (tests). */
    int waiting(String username, String address) {
        String account = LoginThrottlePolicy.key(username);
        return attempts.waiting(LoginThrottlePolicy.pair(account, address));
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
        if (attempt != null && attempt.isOpenFor(LoginThrottlePolicy.key(username))) {
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
        if (attempt != null && attempt.isOpenFor(LoginThrottlePolicy.key(username))) {
            attempt.succeeded();
        }
        else {
            recordSuccess(username, addressOf(request));
        }
    }

    /**
     * Writes the refusals counted since the last run: one audit row per account with the count. Runs every
     * minute; with several instances each writes its own count (issue 15).
     */
    @Scheduled(fixedDelayString = "PT1M", initialDelayString = "PT1M")
    public void flushRefused() {
        refusals.flush();
    }

    /**
     * A failed login.
     *
     * @return whether this failure locked the pair (a new lock starts)
     */
    public boolean recordFailure(String username, String address) {
        String account = LoginThrottlePolicy.key(username);
        replication.tellFailure(account, address);
        LoginThrottlePolicy.Failure failure = policy.failure(account, address);
        attempts.policyChanged();
        return replication.storeLock(failure);
    }

    /** A failure another instance counted. */
    void failureElsewhere(String message) {
        replication.failureElsewhere(message);
    }

    /** A success another instance saw. */
    void successElsewhere(String message) {
        replication.successElsewhere(message);
    }

    /**
     * A successful login: the pair's failures are forgiven and the pair becomes a known address of the
     * account. The account's and the address's budgets are not given back: a stranger's guesses from
     * elsewhere must not get a fresh budget each time the owner logs in.
     */
    public void recordSuccess(String username, String address) {
        successHere(LoginThrottlePolicy.key(username), address);
    }

    /** A success seen here, of an account's key: told to the others, counted, stored if it must last. */
    private void successHere(String account, String address) {
        replication.tellSuccess(account, address);
        LoginThrottlePolicy.Success success = policy.success(account, address);
        attempts.policyChanged();
        replication.storeKnown(success);
    }

    /**
     * One unit of every budget that applies to an attempt, taken by {@link #tryAcquire} before the attempt's
     * proof is checked; settled once by {@link #failed} or {@link #succeeded}, or given back by {@link #close}.
     * {@link LoginThrottleAttempts} holds it while it is under way.
     */
    public final class Attempt implements AutoCloseable {
        final String account;
        final String address;
        final String pair;
        final Instant taken;
        /** Guarded by {@link LoginThrottleAttempts}. */
        boolean open = true;

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
            LoginThrottlePolicy.Failure failure = attempts.fail(this);
            if (failure == null) {
                return false;
            }
            replication.tellFailure(account, address);
            return replication.storeLock(failure);
        }

        /**
         * The login is whole: the unit is given back, and the pair forgiven and made a known address (as
         * {@link LoginThrottle#recordSuccess(String, String)}). Once only, like {@link #failed}.
         */
        public void succeeded() {
            if (attempts.release(this)) {
                successHere(account, address);
            }
        }

        /** Gives the unit back without counting anything, unless the attempt was settled already. */
        @Override
        public void close() {
            attempts.release(this);
        }

        /** Whether this attempt is still open and of that account (an account's key). */
        boolean isOpenFor(String accountKey) {
            return attempts.isOpenFor(this, accountKey);
        }
    }
}
