package com.example.identity.minors;

import java.time.Instant;

import org.springframework.stereotype.Component;

import com.example.identity.account.AccountDeletion;
import com.example.identity.common.Purge;

/**
 * The retention job's part of decisions §27: an account whose parent did not answer within 7 days is deleted as
 * decisions §20 deletes any account ({@link AccountDeletion#deleteWithoutParentalConsent}: every row keyed by it, its
 * id never given again, the audit line {@code usuario #<id> (sin consentimiento parental)}). At most {@value #PER_RUN}
 * an hourly run, the oldest request first.
 */
@Component
class UnansweredConsents implements Purge {

    static final int PER_RUN = 500;

    private final ParentalConsents consents;
    private final AccountDeletion deletion;

    UnansweredConsents(ParentalConsents consents, AccountDeletion deletion) {
        this.consents = consents;
        this.deletion = deletion;
    }

    @Override
    public Kind kind() {
        return Kind.UNANSWERED_CONSENTS;
    }

    /** Deletes the accounts still waiting at {@code now} for an answer asked 7 days before ({@code cutoff} is now). */
    @Override
    public int purge(Instant cutoff, Instant now) {
        int deleted = 0;
        for (long userId : consents.unanswered(now, PER_RUN)) {
            if (consents.expire(userId, now)
                    && deletion.deleteWithoutParentalConsent(userId, false) == AccountDeletion.Outcome.DELETED) {
                deleted++;
            }
        }
        return deleted;
    }
}
