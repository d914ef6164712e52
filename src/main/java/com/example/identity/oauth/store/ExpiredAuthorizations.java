package com.example.identity.oauth.store;

import java.time.Instant;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.common.Purge;

/**
 * Forgets authorizations whose code expired before a cutoff: used or not, they can do nothing more. Kept
 * until then so that a late replay is still recognised and revokes the tokens issued from the code.
 * Called by the retention job.
 */
@Component
public class ExpiredAuthorizations implements Purge {

    private final AuthorizationRecordRepository records;

    ExpiredAuthorizations(AuthorizationRecordRepository records) {
        this.records = records;
    }

    @Override
    public Kind kind() {
        return Kind.EXPIRED_CODES;
    }

    /** @return how many were deleted; those with a live refresh token stay */
    @Transactional
    @Override
    public int purge(Instant cutoff, Instant now) {
        return records.deleteExpiredBefore(cutoff, now);
    }
}
