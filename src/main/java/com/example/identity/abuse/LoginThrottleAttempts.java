package com.example.identity.abuse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
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
 * <p>
 * <b>Waiting its turn</b> (issue 39). An attempt that only the attempts under way stand in the way of (should they
 * all fail, it would be one too many) is not refused: it waits in its pair's queue, in order of arrival, until an
 * attempt ahead of it is settled or closed, or the policy changes (here or at another instance), then looks again.
 * It is refused when the queue is full ({@link Queue}), when the failures actually counted refuse it (the pair
 * locked or delayed, the account's or the address's delay), or after waiting {@link Queue#longest}. So simultaneous
 * right passwords of one pair all log in, one or two at a time, while simultaneous guesses still get no more
 * evaluations than the budget. The lock is a {@link ReentrantLock}, which a waiting virtual thread does not pin.
 */
final class LoginThrottleAttempts {

    /**
     * How many attempts may wait: per pair and on this instance altogether; and how long each waits at most.
     * {@link #NONE}: no waiting at all (an attempt in the way is a refusal), as before issue 39.
     */
    record Queue(int perPair, int total, Duration longest) {
        static final Queue NONE = new Queue(0, 0, Duration.ZERO);
    }

    private final LoginThrottlePolicy policy;
    private final Clock clock;
    private final Queue queue;
    /** Guards everything below and each attempt's {@code open}: taking an attempt (check and unit) is one step. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when an attempt is taken, settled or closed, or when the policy changed. */
    private final Condition changed = lock.newCondition();
    /** The attempts taken and not yet settled nor closed, oldest first. */
    private final Set<Attempt> underWay = new LinkedHashSet<>();
    /** The attempts waiting, per pair, first come first; a pair without any has no entry. */
    private final Map<String, ArrayDeque<Object>> waiting = new HashMap<>();
    private int waitingTotal;

    LoginThrottleAttempts(LoginThrottlePolicy policy, Clock clock, Queue queue) {
        this.policy = policy;
        this.clock = clock;
        this.queue = queue;
    }

    /**
     * Takes one unit of every budget for an attempt of the account from the address (the pair their digest),
     * unless the policy refuses it with the attempts under way counted; waits its turn when only those stand in
     * its way (the class comment).
     *
     * @param taking the attempt, taken at the instant it is given
     * @return the attempt, or null when it is refused
     */
    @Nullable Attempt take(String account, String address, String pair, Function<Instant, Attempt> taking) {
        lock.lock();
        Object ticket = null;
        try {
            long deadline = 0;
            while (true) {
                Instant now = clock.instant();
                ArrayDeque<Object> line = waiting.get(pair);
                boolean next = ticket == null ? line == null : line.peekFirst() == ticket;
                if (next && !blocked(account, address, pair, now)) {
                    Attempt attempt = taking.apply(now);
                    underWay.add(attempt);
                    return attempt;
                }
                if (policy.blocked(account, address, pair, now, 0, 0, 0)) {
                    return null; // failures counted refuse it: no point waiting
                }
                if (ticket == null) {
                    if ((line == null ? 0 : line.size()) >= queue.perPair() || waitingTotal >= queue.total()) {
                        return null;
                    }
                    ticket = new Object();
                    waiting.computeIfAbsent(pair, p -> new ArrayDeque<>()).addLast(ticket);
                    waitingTotal++;
                    deadline = System.nanoTime() + queue.longest().toNanos();
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                // woken by any change; a second at most, should one come unannounced (an attempt's TTL)
                changed.awaitNanos(Math.min(left, TimeUnit.SECONDS.toNanos(1)));
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        finally {
            leave(pair, ticket); // taken or refused, it is in line no more; the next one looks again
            lock.unlock();
        }
    }

    /** Whether the policy refuses the attempt now, the attempts under way counted (expired ones dropped). */
    private boolean blocked(String account, String address, String pair, Instant now) {
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
        return policy.blocked(account, address, pair, now, ofPair, ofAccount, ofAddress);
    }

    /** The ticket leaves its pair's line (nothing when null); the next one in line looks again. */
    private void leave(String pair, @Nullable Object ticket) {
        if (ticket == null) {
            return;
        }
        ArrayDeque<Object> line = waiting.get(pair);
        if (line != null && line.remove(ticket)) {
            waitingTotal--;
            if (line.isEmpty()) {
                waiting.remove(pair);
            }
            changed.signalAll();
        }
    }

    /** The attempts waiting their turn now, of one pair. */
    int waiting(String pair) {
        lock.lock();
        try {
            ArrayDeque<Object> line = waiting.get(pair);
            return line == null ? 0 : line.size();
        }
        finally {
            lock.unlock();
        }
    }

    /** The policy changed (a failure or a success counted, here or elsewhere): the waiting attempts look again. */
    void policyChanged() {
        lock.lock();
        try {
            changed.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Settles an open attempt as a failure, counted by the policy.
     *
     * @return the failure counted, or null when the attempt was settled or closed already (nothing counted)
     */
    LoginThrottlePolicy.@Nullable Failure fail(Attempt attempt) {
        lock.lock();
        try {
            if (!attempt.open) {
                return null;
            }
            attempt.open = false;
            // counted before the unit is let go, in one step: no attempt taken meanwhile sees neither
            LoginThrottlePolicy.Failure failure = policy.failure(attempt.account, attempt.address);
            underWay.remove(attempt);
            changed.signalAll();
            return failure;
        }
        finally {
            lock.unlock();
        }
    }

    /** Lets an open attempt go, its unit given back; whether it was open (else nothing happens). */
    boolean release(Attempt attempt) {
        lock.lock();
        try {
            if (!attempt.open) {
                return false;
            }
            attempt.open = false;
            underWay.remove(attempt);
            changed.signalAll();
            return true;
        }
        finally {
            lock.unlock();
        }
    }

    /** Whether the attempt is still open and of that account (an account's key). */
    boolean isOpenFor(Attempt attempt, String accountKey) {
        lock.lock();
        try {
            return attempt.open && attempt.account.equals(accountKey);
        }
        finally {
            lock.unlock();
        }
    }
}
