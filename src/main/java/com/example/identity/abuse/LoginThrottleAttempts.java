package com.example.identity.abuse;

import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import com.example.identity.abuse.LoginThrottle.Attempt;

/**
 * The login attempts under way on this instance ({@link LoginThrottle#tryAcquire}): taken before their proof is
 * checked and not yet settled nor closed. Taking one is one step, the check of the {@link LoginThrottlePolicy}
 * with the attempts under way counted as the failures they may turn out to be, and the unit held; so is settling
 * one as a failure, counted before its unit is let go. The units are atomic on one instance; simultaneous
 * attempts spread over several instances are each held on their own, and their failures reach the others
 * ({@link LoginThrottleReplication}). An attempt left neither settled nor closed (a bug) stops holding its unit
 * after {@link LoginThrottle#ATTEMPT_TTL}.
 */
final class LoginThrottleAttempts {

    private final LoginThrottlePolicy policy;
    private final Clock clock;
    /**
     * The attempts taken and not yet settled nor closed, oldest first; guarded by itself, which makes taking
     * an attempt (the check and the unit) one step. It also guards each attempt's {@code open}.
     */
    private final Set<Attempt> underWay = new LinkedHashSet<>();

    LoginThrottleAttempts(LoginThrottlePolicy policy, Clock clock) {
        this.policy = policy;
        this.clock = clock;
    }

    /**
     * Takes one unit of every budget for an attempt of the account from the address (the pair their digest),
     * unless the policy refuses it with the attempts under way counted.
     *
     * @param taking the attempt, taken at the instant it is given
     * @return the attempt, or null when it is refused
     */
    @Nullable Attempt take(String account, String address, String pair, Function<Instant, Attempt> taking) {
        synchronized (underWay) {
            Instant now = clock.instant();
            int ofPair = 0;
            int ofAccount = 0;
            int ofAddress = 0;
            for (Iterator<Attempt> i = underWay.iterator(); i.hasNext();) {
                Attempt other = i.next();
                if (!other.taken.plus(LoginThrottle.ATTEMPT_TTL).isAfter(now)) {
                    i.remove();
                    continue;
                }
                ofPair += other.pair.equals(pair) ? 1 : 0;
                ofAccount += other.account.equals(account) ? 1 : 0;
                ofAddress += other.address.equals(address) ? 1 : 0;
            }
            if (!policy.blocked(account, address, pair, now, ofPair, ofAccount, ofAddress)) {
                Attempt attempt = taking.apply(now);
                underWay.add(attempt);
                return attempt;
            }
        }
        return null;
    }

    /**
     * Settles an open attempt as a failure, counted by the policy.
     *
     * @return the failure counted, or null when the attempt was settled or closed already (nothing counted)
     */
    LoginThrottlePolicy.@Nullable Failure fail(Attempt attempt) {
        synchronized (underWay) {
            if (!attempt.open) {
                return null;
            }
            attempt.open = false;
            // counted before the unit is let go, in one step: no attempt taken meanwhile sees neither
            LoginThrottlePolicy.Failure failure = policy.failure(attempt.account, attempt.address);
            underWay.remove(attempt);
            return failure;
        }
    }

    /** Lets an open attempt go, its unit given back; whether it was open (else nothing happens). */
    boolean release(Attempt attempt) {
        synchronized (underWay) {
            if (!attempt.open) {
                return false;
            }
            attempt.open = false;
            underWay.remove(attempt);
            return true;
        }
    }

    /** Whether the attempt is still open and of that account (an account's key). */
    boolean isOpenFor(Attempt attempt, String accountKey) {
        synchronized (underWay) {
            return attempt.open && attempt.account.equals(accountKey);
        }
    }
}
