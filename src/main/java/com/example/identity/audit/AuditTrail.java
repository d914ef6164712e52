package com.example.identity.audit;

import java.time.Clock;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import com.example.identity.common.Purge;

/**
 * Writes every {@link AuditEvent} in the transaction of the work that caused it, just before it commits
 * (so the line exists exactly when the change does), with the actor (the logged-in user, the token's owner,
 * or what the event names) and the source address of the request; an event published outside a
 * transaction (a failed login) is written in one of its own.
 *
 * <p>Not after the commit in a new transaction: at that point the finished transaction still holds its
 * connection, so each audited change needed two connections at once, and a burst of concurrent audited
 * changes (refresh token reuse detected by many racing requests) exhausted the pool with every thread
 * holding one connection and waiting for a second.
 */
@Service
public class AuditTrail implements Purge {

    public static final int PAGE_SIZE = 50;

    private final AuditRecordRepository records;
    private final Clock clock;
    private final ActorAccounts accounts;

    AuditTrail(AuditRecordRepository records, Clock clock, ActorAccounts accounts) {
        this.records = records;
        this.clock = clock;
        this.accounts = accounts;
    }

    @TransactionalEventListener(phase = TransactionPhase.BEFORE_COMMIT, fallbackExecution = true)
    @Transactional
    public void record(AuditEvent event) {
        String actor = event.actor() != null ? event.actor() : currentActor();
        // only an address names an account (not a client id, not "usuario #<id>" of a deleted one)
        Long actorId = actor == null || actor.indexOf('@') < 1 ? null : accounts.accountOf(actor);
        records.save(new AuditRecord(clock.instant(), event.type(), actor, actorId, currentAddress(), event.subject()));
    }

    @Override
    public Kind kind() {
        return Kind.AUDIT_ROWS;
    }

    /** Deletes the rows that occurred before {@code cutoff} (the retention job); returns how many. */
    @Transactional
    @Override
    public int purge(java.time.Instant cutoff, java.time.Instant now) {
        return records.deleteOlderThan(cutoff);
    }

    /** Newest first. */
    @Transactional(readOnly = true)
    public Page<AuditRecord> page(int page) {
        return records.findAllByOrderByOccurredAtDescIdDesc(PageRequest.of(Math.max(0, page), PAGE_SIZE));
    }

    private static String currentActor() {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth == null || !auth.isAuthenticated()) {
            return null;
        }
        // for a logged-in account the name is its e-mail (AccountPrincipal.getUsername)
        String name = auth.getName();
        return "anonymousUser".equals(name) ? null : name;
    }

    private static String currentAddress() {
        return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
                ? attributes.getRequest().getRemoteAddr() : null;
    }
}
