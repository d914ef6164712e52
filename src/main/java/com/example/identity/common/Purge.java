package com.example.identity.common;

import java.time.Instant;

/**
 * Old rows of one feature that the hourly retention job forgets ({@code retention/RetentionJob}, settings
 * {@code identity.retention.*}). Each feature's class that owns such rows implements this for them, so the job
 * collects every purge as a {@code List<Purge>} instead of knowing the features.
 */
public interface Purge {

    /**
     * What a purge forgets: the setting that dates its cutoff and the count of the job's log line it adds to.
     * The job runs the purges in the order of their kinds.
     */
    enum Kind {
        /** Tokens revoked or expired before now minus {@code identity.retention.tokens}: "ended tokens". */
        ENDED_TOKENS,
        /**
         * Authorizations, device flow runs and links whose code or link expired before now minus
         * {@code identity.retention.codes}: "expired authorizations and device runs".
         */
        EXPIRED_CODES,
        /** Audit rows older than now minus {@code identity.retention.audit}: "audit rows". */
        AUDIT_ROWS,
        /** Login throttle pairs neither locked nor known at now (no setting: the cutoff is now). */
        LOGIN_PAIRS,
        /** Guessing budgets of {@code /activar} full again at now (no setting: the cutoff is now). */
        GUESSING_BUDGETS,
        /**
         * DPoP proofs that can no longer be accepted, and pushed authorization requests past their minute (no
         * setting: the cutoff is now).
         */
        SEEN_PROOFS,
        /**
         * Guest players idle longer than {@code identity.guests.max-idle}, deleted as any account (decisions §24): the
         * setting is the guests' own, so the cutoff given is now.
         */
        IDLE_GUESTS,
        /**
         * Children's accounts whose parent did not answer within 7 days (decisions §27), deleted as any account (no
         * setting: the cutoff is now).
         */
        UNANSWERED_CONSENTS
    }

    /** The kind of rows this purge forgets. */
    Kind kind();

    /**
     * Deletes this purge's rows that ended before {@code cutoff} (now minus the setting of its {@link #kind()},
     * or now itself for a kind without one).
     *
     * @return how many rows were deleted
     */
    int purge(Instant cutoff, Instant now);
}
