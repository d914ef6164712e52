package com.example.identity.account;

import java.time.Clock;
import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.audit.AuditEvent;
import com.example.identity.common.AfterCommit;

/**
 * What password recovery by e-mail (recovery/, decisions §17) asks of accounts: the account of an address,
 * one recovery of an account at a time, and the forgotten password replaced, which is the address's first proof when
 * nobody had proved it (D44). The person's own change of a known password is {@link AccountService#changePassword}.
 */
@Service
public class AccountRecoveries {

    private final UserAccountRepository users;
    private final PasswordEncoder passwordEncoder;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final ProvedAddressMail provedAddressMail;
    private final AccountLocks locks;

    AccountRecoveries(UserAccountRepository users, PasswordEncoder passwordEncoder, Clock clock,
            ApplicationEventPublisher events, ProvedAddressMail provedAddressMail, AccountLocks locks) {
        this.users = users;
        this.passwordEncoder = passwordEncoder;
        this.clock = clock;
        this.events = events;
        this.provedAddressMail = provedAddressMail;
        this.locks = locks;
    }

    /** The account of {@code correo}, if there is one (a link is sent only to an enabled one). */
    @Transactional(readOnly = true)
    public Optional<UserAccount> findByEmail(String correo) {
        return users.findByCorreo(UserAccount.normalizeEmail(correo));
    }

    /**
     * Locks the account's row until the caller's transaction ends: one recovery request of an account at a time,
     * on every instance (the count of the links sent this hour and the new link's insert are not raced).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void lock(long userId) {
        locks.lock(userId);
    }

    /**
     * A forgotten password replaced through a recovery link: the same rules as a change
     * ({@link AccountService#checkNewPassword}: the new one differs from the forgotten one too), without the current
     * password (the link proved the mailbox). Every session of the account ends ({@link PasswordChanged} with no
     * session kept), tokens stay; audited. When nobody had proved the address before, the ways into the account
     * added without that proof go too, and the owner is told by mail ({@link UnprovenAddressProved}, D44).
     *
     * @throws AccountService.InvalidAccountException with field {@code nueva} and the Spanish reason
     */
    @Transactional
    public UserAccount recoverPassword(long userId, String chosen) {
        UserAccount user = users.findById(userId).filter(UserAccount::isEnabled)
                .orElseThrow(() -> new AccountService.InvalidAccountException("nueva", "Cuenta no encontrada"));
        AccountService.checkNewPassword(passwordEncoder, user, chosen, null);
        user.changePasswordHash(passwordEncoder.encode(chosen), clock.instant());
        // the link reached the mailbox: the address is proved (decisions §18)
        boolean firstProof = user.markEmailVerified(clock.instant());
        events.publishEvent(new PasswordChanged(userId, user.getCorreo(), null));
        events.publishEvent(new AuditEvent(AuditEvent.Type.PASSWORD_RECOVERED, AccountService.describe(user)));
        if (firstProof) {
            UnprovenAddressProved proved = new UnprovenAddressProved(userId, user.getCorreo());
            events.publishEvent(proved);
            if (proved.removedAnything()) {
                String name = user.getPrimerNombre();
                AfterCommit.onCommit(() -> provedAddressMail.send(proved, name));
            }
        }
        return user;
    }
}
