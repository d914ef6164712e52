package com.example.identity.audit;

import java.time.Clock;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;


/**
 * Writes every {@link AuditEvent} once the work that caused it has committed, with the actor (the
 * logged-in user, the token's owner, or what the event names) and the source address of the request.
 */
@Service
public class AuditTrail {

    public static final int PAGE_SIZE = 50;

    private final AuditRecordRepository records;
    private final Clock clock;

    AuditTrail(AuditRecordRepository records, Clock clock) {
        this.records = records;
        this.clock = clock;
    }

    @TransactionalEventListener(fallbackExecution = true)
    @Transactional(propagation = Propagation.REQUIRES_NEW)
    public void record(AuditEvent event) {
        records.save(new AuditRecord(clock.instant(), event.type(), event.actor() != null ? event.actor() : currentActor(),
                currentAddress(), event.subject()));
    }

    /** Deletes the rows that occurred before {@code cutoff} (the retention job); returns how many. */
    @Transactional
    public int purgeBefore(java.time.Instant cutoff) {
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
