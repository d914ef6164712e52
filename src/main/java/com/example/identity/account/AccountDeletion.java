package com.example.identity.account;

import java.time.Clock;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.audit.AuditEvent;
import com.example.identity.crypto.Secrets;

/**
 * The deletion of an account as decisions §20 says, in one transaction: every session ends on every
 * instance ({@link AccountChanged}, which also makes every instance look its cached tokens up again); its
 * API tokens, OAuth authorizations (access tokens), refresh token families, consents, device approvals,
 * passkeys, second factor, recovery codes, pending password resets and e-mail changes are removed; the
 * {@code users} row stays as a tombstone ({@link UserAccount#erase}) so that the id is never reused and
 * the applications the account registered keep an owner (an admin manages them); the audit trail keeps
 * its events with the id, and the address is taken out of them.
 *
 * <p>Called through {@link AccountService#delete}, which applies the admin's rules (issue 31's
 * {@code POST /api/usuarios/delete.php}); the person's own deletion ({@code /cuenta/eliminar}, issue 28) is
 * meant to call the same {@link #delete} after checking their password.
 */
@Component
class AccountDeletion {

    /** Rows keyed by the account's id, children before parents (foreign keys to {@code users}). */
    private static final String[] BY_USER_ID = {
        "delete from refresh_tokens where user_id = ?",
        "delete from oauth_authorizations where user_id = ?",
        "delete from oauth_consents where user_id = ?",
        "delete from device_authorizations where user_id = ?",
        "delete from api_tokens where user_id = ?",
        "delete from recovery_codes where user_id = ?",
        "delete from user_totp where user_id = ?",
        "delete from password_resets where user_id = ?",
        "delete from email_changes where user_id = ?",
    };

    private final UserAccountRepository users;
    private final JdbcTemplate jdbc;
    private final PasswordEncoder passwordEncoder;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    AccountDeletion(UserAccountRepository users, JdbcTemplate jdbc, PasswordEncoder passwordEncoder,
            ApplicationEventPublisher events, Clock clock) {
        this.users = users;
        this.jdbc = jdbc;
        this.passwordEncoder = passwordEncoder;
        this.events = events;
        this.clock = clock;
    }

    /** Deletes {@code account} (not yet deleted; the caller checked who may). Audited as {@code USER_DELETED}. */
    @Transactional(propagation = Propagation.MANDATORY)
    void delete(UserAccount account) {
        long id = account.getId();
        String correo = account.getCorreo();
        // first, while the account still has its address: its sessions are found by it (SessionTerminator)
        events.publishEvent(new AccountChanged(id));
        for (String statement : BY_USER_ID) {
            jdbc.update(statement, id);
        }
        // passkeys: Spring Security's tables, whose user entity is named by the login name, the address
        jdbc.update("delete from user_credentials where user_entity_user_id in (select id from user_entities where name = ?)",
                correo);
        jdbc.update("delete from user_entities where name = ?", correo);
        String named = "usuario #" + id;
        jdbc.update("update audit_events set actor = ? where actor = ?", named, correo);
        jdbc.update("update audit_events set subject = replace(replace(subject, ?, ?), ?, ?) where position(? in subject) > 0",
                named + " " + correo, named, correo, named, correo);
        account.erase(passwordEncoder.encode(Secrets.randomUrlSafe(32)), clock.instant());
        users.saveAndFlush(account);
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_DELETED, named));
    }
}
