package com.example.identity.abuse;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.context.ApplicationEventPublisher;

import com.example.identity.audit.AuditEvent;

/**
 * The attempts the login throttle refused under a lock or a delay since the last {@link #flush}, per account as
 * the audit trail may name it ({@link AuditEvent#attemptedAccount}): counted, not written one row each.
 */
final class LoginThrottleRefusals {

    private final Map<String, AtomicLong> refused = new ConcurrentHashMap<>();
    private final ApplicationEventPublisher events;

    LoginThrottleRefusals(ApplicationEventPublisher events) {
        this.events = events;
    }

    /** One more refused attempt of {@code username}; past {@link LoginThrottlePolicy#MAX_KEYS} accounts, unnamed. */
    void count(String username) {
        String actor = AuditEvent.attemptedAccount(username);
        if (refused.size() < LoginThrottlePolicy.MAX_KEYS || refused.containsKey(actor)) {
            refused.computeIfAbsent(actor, k -> new AtomicLong()).incrementAndGet();
        } else {
            refused.computeIfAbsent(AuditEvent.attemptedAccount(null), k -> new AtomicLong()).incrementAndGet();
        }
    }

    /** Writes the refusals counted since the last time: one audit row per account with the count. */
    void flush() {
        for (String actor : refused.keySet()) {
            AtomicLong count = refused.remove(actor);
            if (count != null && count.get() > 0) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_REFUSED, count.get() + " intentos rechazados",
                        actor));
            }
        }
    }
}
