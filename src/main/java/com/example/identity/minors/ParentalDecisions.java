package com.example.identity.minors;

import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountDeletion;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.AfterCommit;

/**
 * A parent's answer at {@code /tutor/consentir} (decisions §27), each in one transaction with its audit line: yes
 * ({@value #ALLOW}: the consent is {@code concedido}, the confirmation mail carries the withdrawal link), no
 * ({@value #DENY}: the account is deleted through the ordinary deletion, §20), or, from the confirmation mail's link,
 * withdrawn ({@value #WITHDRAW}: the account is disabled as an admin disables one: sessions end, tokens refused).
 */
@Service
public class ParentalDecisions {

    /** The page's {@code decision} values (§27: {@code allow}, {@code deny}; {@code withdraw}: D49). */
    public static final String ALLOW = "allow";
    public static final String DENY = "deny";
    public static final String WITHDRAW = "withdraw";

    /** What an answer came to. */
    public enum Outcome { ALLOWED, DENIED, WITHDRAWN, LINK_UNUSABLE }

    private final ParentalConsents consents;
    private final AccountDeletion deletion;
    private final AccountAdministration administration;
    private final ConsentMails mails;
    private final ApplicationEventPublisher events;

    ParentalDecisions(ParentalConsents consents, AccountDeletion deletion, AccountAdministration administration,
            ConsentMails mails, ApplicationEventPublisher events) {
        this.consents = consents;
        this.deletion = deletion;
        this.administration = administration;
        this.mails = mails;
        this.events = events;
    }

    /**
     * The parent's {@code decision} on the link {@code token}: {@value #ALLOW} or {@value #DENY} on the request's link,
     * {@value #WITHDRAW} on the confirmation's; anything else, or a link that no longer works, changes nothing.
     */
    @Transactional
    public Outcome decide(@Nullable String token, @Nullable String decision) {
        Optional<ParentalConsents.Link> found = consents.find(token);
        if (found.isEmpty()) {
            return Outcome.LINK_UNUSABLE;
        }
        ParentalConsents.Child child = found.get().child();
        String subject = "usuario #" + child.userId() + " " + child.correo();
        if (found.get().kind() == ParentalConsents.LinkKind.WITHDRAWAL) {
            if (!WITHDRAW.equals(decision) || !consents.withdraw(child.userId())) {
                return Outcome.LINK_UNUSABLE;
            }
            events.publishEvent(new AuditEvent(AuditEvent.Type.PARENTAL_CONSENT_WITHDRAWN, subject, child.tutor()));
            administration.disableWithoutParentalConsent(child.userId());
            return Outcome.WITHDRAWN;
        }
        if (ALLOW.equals(decision)) {
            Optional<String> withdrawal = consents.grant(child.userId());
            if (withdrawal.isEmpty()) {
                return Outcome.LINK_UNUSABLE;
            }
            events.publishEvent(new AuditEvent(AuditEvent.Type.PARENTAL_CONSENT_GIVEN, subject, child.tutor()));
            AfterCommit.onCommit(() -> mails.sendGranted(child, withdrawal.get()));
            return Outcome.ALLOWED;
        }
        if (DENY.equals(decision) && consents.refuse(child.userId())) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.PARENTAL_CONSENT_REFUSED, subject, child.tutor()));
            deletion.deleteWithoutParentalConsent(child.userId(), true);
            return Outcome.DENIED;
        }
        return Outcome.LINK_UNUSABLE;
    }
}
