package com.example.identity.deviceflow;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.audit.AuditEvent;
import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;

/**
 * The device flow's state (RFC 8628, decisions §16), in the database so that any instance can answer any
 * step: a console starts a run ({@link #start}), a user finds it by its user code and decides
 * ({@link #findPending}, {@link #decide}), the console polls ({@link #poll}) and the one poll that finds it
 * approved spends it ({@link #spend}) in the transaction that stores its tokens.
 */
@Component
public class DeviceAuthorizations implements Purge {

    /** RFC 8628 §3.2 {@code expires_in}: a run lasts 10 minutes (decisions §16). */
    public static final Duration LIFETIME = Duration.ofMinutes(10);
    /** RFC 8628 §3.2 {@code interval}: seconds between polls at first (decisions §16). */
    public static final int INTERVAL = 5;
    /**
     * A poll counts as on time when it comes at most this much before {@code interval} seconds after the
     * previous one: the console's clock and the network's delays are not exact, and a console that waits
     * exactly {@code interval} must never be told {@code slow_down}.
     */
    static final Duration POLL_TOLERANCE = Duration.ofMillis(500);

    private final DeviceAuthorizationRepository runs;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    DeviceAuthorizations(DeviceAuthorizationRepository runs, TransactionTemplate transactions,
            ApplicationEventPublisher events, Clock clock) {
        this.runs = runs;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /** A run as the console is told of it once: the two codes in clear, never stored so. */
    public record Started(String id, String deviceCode, String userCode, Instant expiresAt, int interval) {
        @Override
        public String toString() {
            return "Started[id=" + id + ", expiresAt=" + expiresAt + "]";
        }
    }

    /**
     * Starts a run for {@code clientId}: a device code of 256 random bits and a fresh user code. A user code
     * that happens to equal one still in the table (a chance of one in 25.6 billion per live row) fails the
     * unique constraint and another is drawn.
     */
    public Started start(String clientId, Set<String> scopes) {
        for (int attempt = 1; ; attempt++) {
            String deviceCode = Secrets.randomUrlSafe(32);
            String userCode = UserCodes.generate();
            Instant now = clock.instant();
            String id = UUID.randomUUID().toString();
            try {
                transactions.executeWithoutResult(status -> runs.saveAndFlush(new DeviceAuthorization(id, clientId,
                        Secrets.sha256Hex(deviceCode), Secrets.sha256Hex(userCode), scopes, now, now.plus(LIFETIME),
                        INTERVAL)));
                return new Started(id, deviceCode, userCode, now.plus(LIFETIME), INTERVAL);
            }
            catch (DataIntegrityViolationException collision) {
                if (attempt == 3) {
                    throw collision;
                }
            }
        }
    }

    /** The pending, unexpired run whose user code a user typed (already {@link UserCodes#normalize normalized}). */
    @Transactional(readOnly = true)
    public Optional<DeviceAuthorization> findPending(String userCode) {
        Instant now = clock.instant();
        return runs.findByUserCodeDigest(Secrets.sha256Hex(userCode))
                .filter(run -> run.status() == DeviceAuthorization.Status.PENDING && !run.isExpiredAt(now));
    }

    /**
     * The user's answer to run {@code id}, with how and when they logged in (for the id_token); false when
     * the run is no longer pending (decided in another tab or instance, or expired meanwhile). Audited.
     */
    @Transactional
    public boolean decide(String id, long userId, boolean allow, Instant authTime, List<String> amr) {
        DeviceAuthorization.Status status = allow ? DeviceAuthorization.Status.APPROVED : DeviceAuthorization.Status.DENIED;
        boolean decided = runs.decide(id, status, userId, clock.instant(), authTime,
                amr.isEmpty() ? null : String.join(" ", amr), DeviceAuthorization.Status.PENDING) == 1;
        if (decided) {
            String clientId = runs.findById(id).map(DeviceAuthorization::clientId).orElse("?");
            events.publishEvent(new AuditEvent(allow ? AuditEvent.Type.DEVICE_APPROVED : AuditEvent.Type.DEVICE_DENIED,
                    clientId + " por usuario #" + userId));
        }
        return decided;
    }

    /** What a poll of the token endpoint finds (RFC 8628 §3.5). */
    public enum Outcome {
        /** No run of this client has that device code, or it was already spent: {@code invalid_grant}. */
        UNKNOWN,
        /** {@code expired_token}. */
        EXPIRED,
        /** {@code authorization_pending}. */
        PENDING,
        /** {@code slow_down}: polled sooner than the interval; the interval grew by 5 s. */
        SLOW_DOWN,
        /** {@code access_denied}. */
        DENIED,
        /** Approved: the caller spends it ({@link #spend}) and issues the tokens. */
        APPROVED
    }

    /** A poll's outcome, with the run it found (null when {@link Outcome#UNKNOWN}). */
    public record Poll(Outcome outcome, DeviceAuthorization run) {
    }

    /**
     * A console's poll with {@code deviceCode}: finds the run of {@code clientId}, and when it is still
     * pending, checks the pace: a poll sooner than the interval since the previous one (or at the same time
     * as another poll, on any instance) is {@link Outcome#SLOW_DOWN} and adds 5 s to the interval. Runs in
     * the caller's transaction (the token endpoint's), which it needs.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Poll poll(String deviceCode, String clientId) {
        if (deviceCode == null || deviceCode.length() > 100) {
            return new Poll(Outcome.UNKNOWN, null);
        }
        Optional<DeviceAuthorization> found = runs.findByDeviceCodeDigest(Secrets.sha256Hex(deviceCode))
                .filter(run -> run.clientId().equals(clientId));
        if (found.isEmpty()) {
            return new Poll(Outcome.UNKNOWN, null);
        }
        DeviceAuthorization run = found.get();
        Instant now = clock.instant();
        switch (run.status()) {
            case USED:
                return new Poll(Outcome.UNKNOWN, run);
            case DENIED:
                return new Poll(Outcome.DENIED, run);
            case APPROVED:
                return new Poll(run.isExpiredAt(now) ? Outcome.EXPIRED : Outcome.APPROVED, run);
            default:
                break;
        }
        if (run.isExpiredAt(now)) {
            return new Poll(Outcome.EXPIRED, run);
        }
        Instant previous = run.lastPolledAt();
        boolean onTime;
        if (previous == null) {
            onTime = runs.firstPoll(run.getId(), now) == 1;
        }
        else {
            Instant due = previous.plusSeconds(run.pollInterval()).minus(POLL_TOLERANCE);
            onTime = !now.isBefore(due) && runs.polled(run.getId(), previous, now) == 1;
        }
        if (!onTime) {
            runs.slowDown(run.getId(), now);
            return new Poll(Outcome.SLOW_DOWN, runs.findById(run.getId()).orElse(run));
        }
        return new Poll(Outcome.PENDING, run);
    }

    /** Spends an approved run, in the caller's transaction; false when another poll did first. */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean spend(DeviceAuthorization run) {
        return runs.spend(run.getId(), DeviceAuthorization.Status.APPROVED, DeviceAuthorization.Status.USED) == 1;
    }

    @Override
    public Kind kind() {
        return Kind.EXPIRED_CODES;
    }

    /** The retention job: deletes runs that expired before {@code cutoff}. */
    @Transactional
    @Override
    public int purge(Instant cutoff, Instant now) {
        return runs.deleteExpiredBefore(cutoff);
    }
}
