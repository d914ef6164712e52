package com.example.identity.abuse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import com.example.identity.common.CacheInvalidation;

/**
 * The login throttle's state shared by several instances, which count as one (decisions §13): every failure and
 * every success is applied by the instance where it happened ({@link LoginThrottle}) and sent from there to every
 * other instance ({@link CacheInvalidation#publish}, PostgreSQL NOTIFY, delivered within milliseconds), which
 * applies it to its own {@link LoginThrottlePolicy}; so five failures spread over two instances lock the pair on
 * both, and a check never waits for the database. What must outlive an instance, a pair's lock and a pair's known
 * address, is also written to the database ({@link LoginPairs}) by the instance where it happened and read by
 * every instance at start, so a restarted or new instance knows them; failures counted towards a lock or a delay
 * are known to the instances running when they happen. Pairs are kept as digests.
 */
final class LoginThrottleReplication {

    /** The throttle's logger, as before the throttle was split. */
    private static final Logger log = LoggerFactory.getLogger(LoginThrottle.class);

    /** Topics of what other instances count: {@code <length of address>:<address><account>}. */
    static final String FAILURES = "login-failure";
    static final String SUCCESSES = "login-success";

    private final LoginThrottlePolicy policy;
    /** Sends a topic's message to every other instance. */
    private final BiConsumer<String, String> toOthers;
    /** Where locks and known addresses last; null in unit tests (memory only). */
    private final @Nullable LoginPairs lasting;
    /** Told after what another instance counted is applied here: the attempts waiting here look again. */
    private final Runnable applied;

    LoginThrottleReplication(LoginThrottlePolicy policy, BiConsumer<String, String> toOthers,
            @Nullable LoginPairs lasting, Runnable applied) {
        this.policy = policy;
        this.toOthers = toOthers;
        this.lasting = lasting;
        this.applied = applied;
    }

    /** Gives the policy the locks and known addresses in force, as stored by any instance. */
    void restore(Clock clock) {
        if (lasting != null) {
            Instant now = clock.instant();
            for (LoginPairs.Pair pair : lasting.current(now, LoginThrottlePolicy.MAX_KEYS)) {
                if (pair.lockedUntil() != null && pair.lockedUntil().isAfter(now)) {
                    policy.restoreLock(pair.digest(), pair.lockedUntil());
                }
                if (pair.knownUntil() != null && pair.knownUntil().isAfter(now)) {
                    policy.restoreKnown(pair.digest(), pair.knownUntil());
                }
            }
        }
    }

    /** Applies here what the other instances count, from now on. */
    void subscribe(CacheInvalidation cluster) {
        cluster.subscribe(FAILURES, this::failureElsewhere);
        cluster.subscribe(SUCCESSES, this::successElsewhere);
    }

    /** Tells the other instances of a failure of the account from the address. */
    void tellFailure(String account, String address) {
        toOthers.accept(FAILURES, message(account, address));
    }

    /** Tells the other instances of a success of the account from the address. */
    void tellSuccess(String account, String address) {
        toOthers.accept(SUCCESSES, message(account, address));
    }

    /** A failure another instance counted (a lock there refuses the attempts waiting here). */
    void failureElsewhere(String message) {
        fromMessage(message, policy::failure);
        applied.run();
    }

    /** A success another instance saw (a pair forgiven there lets the attempts waiting here in). */
    void successElsewhere(String message) {
        fromMessage(message, policy::success);
        applied.run();
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
     * Stores the lock a failure seen here made, if any, for instances started later.
     *
     * @return whether there was one
     */
    boolean storeLock(LoginThrottlePolicy.Failure failure) {
        if (failure.lockedUntil() == null) {
            return false;
        }
        last(() -> lasting.lock(failure.pair(), failure.lockedUntil()));
        return true;
    }

    /** Stores the known address a success seen here made, for instances started later. */
    void storeKnown(LoginThrottlePolicy.Success success) {
        // one write per pair a day at most (and at once after a lock), not one per login
        if (success.wasLocked() || success.knownBefore() == null
                || success.knownUntil().isAfter(success.knownBefore().plus(Duration.ofDays(1)))) {
            last(() -> lasting.known(success.pair(), success.knownUntil()));
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
}
