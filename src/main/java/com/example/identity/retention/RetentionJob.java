package com.example.identity.retention;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.common.ClusterLock;
import com.example.identity.common.Purge;
import com.example.identity.common.Purge.Kind;

/**
 * The one job that forgets what has done its work, every hour ({@code identity.retention.*}). It knows no
 * feature: each one contributes a {@link Purge} for the rows it owns, and the job runs them all, in the order of
 * their {@linkplain Purge.Kind kinds}, with the cutoff of each kind's setting: audit rows older than {@code audit}
 * (365 days), API and refresh tokens revoked or expired longer ago than {@code tokens} (30 days), authorizations
 * whose code expired longer ago than {@code codes} (1 day), device flow runs, password recovery and e-mail change
 * links that expired as long ago, the login throttle's pairs that are neither locked nor known any more, and the
 * guessing budgets of {@code /activar} that are full again, the DPoP proofs and pushed authorization requests whose
 * minute has passed, the guest players idle longer than {@code identity.guests.max-idle} (deleted as any
 * account, a few hundred a run), and children's accounts whose parent did not answer within 7 days (decisions §27,
 * deleted the same way). Each of the others is one DELETE (the first three on an indexed time column).
 * <p>
 * One instance at a time runs it ({@link ClusterLock#runIfFree}: an instance that finds another one at it
 * skips that hour's run), all purges in that one transaction.
 */
@Component
class RetentionJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    private final IdentityProperties.Retention retention;
    private final List<Purge> purges;
    private final Clock clock;
    private final ClusterLock locks;

    RetentionJob(IdentityProperties properties, List<Purge> purges, Clock clock, ClusterLock locks) {
        this.retention = properties.retention();
        this.purges = purges.stream().sorted(Comparator.comparing(Purge::kind)).toList();
        this.clock = clock;
        this.locks = locks;
    }

    @Scheduled(fixedDelayString = "PT1H", initialDelayString = "PT5M")
    void run() {
        locks.runIfFree("retention", this::purge);
    }

    private void purge() {
        Instant now = clock.instant();
        Map<Kind, Integer> purged = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            purged.put(kind, 0);
        }
        for (Purge purge : purges) {
            purged.merge(purge.kind(), purge.purge(cutoff(purge.kind(), now), now), Integer::sum);
        }
        int codes = purged.get(Kind.EXPIRED_CODES);
        int ended = purged.get(Kind.ENDED_TOKENS);
        int rows = purged.get(Kind.AUDIT_ROWS);
        int pairs = purged.get(Kind.LOGIN_PAIRS);
        int budgets = purged.get(Kind.GUESSING_BUDGETS);
        int proofs = purged.get(Kind.SEEN_PROOFS);
        int guests = purged.get(Kind.IDLE_GUESTS);
        int unanswered = purged.get(Kind.UNANSWERED_CONSENTS);
        if (codes + ended + rows + pairs + budgets + proofs + guests + unanswered > 0) {
            log.info("Retention: purged {} expired authorizations and device runs, {} ended tokens, {} audit rows, {} login pairs "
                    + "neither locked nor known, {} full guessing budgets of /activar, {} DPoP proofs and pushed requests "
                    + "past their time, {} idle guests, {} children's accounts without a parent's answer", codes, ended, rows,
                    pairs, budgets, proofs, guests, unanswered);
        }
    }

    /** Now minus the setting of {@code kind}, or now for the kinds without one. */
    private Instant cutoff(Kind kind, Instant now) {
        return switch (kind) {
            case ENDED_TOKENS -> now.minus(retention.tokens());
            case EXPIRED_CODES -> now.minus(retention.codes());
            case AUDIT_ROWS -> now.minus(retention.audit());
            case LOGIN_PAIRS, GUESSING_BUDGETS, SEEN_PROOFS, IDLE_GUESTS, UNANSWERED_CONSENTS -> now;
        };
    }
}
