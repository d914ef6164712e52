package com.example.identity.account;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.persistence.EntityManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.audit.AccountLines;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.PersonalData;

/**
 * Deletes an account and everything it owns (decisions §20), in one transaction, for {@code /cuenta/eliminar}
 * (the person, who proved it is them), the admin's "Eliminar" and the management route of issue 31:
 * <ol>
 * <li>{@link AccountChanged}: every session of the account ends on every instance (the Spring Session rows go,
 * now and again at commit, account/SessionTerminator) and every instance forgets its cached tokens;</li>
 * <li>{@link AccountDeleting}: the features that must act while the account exists (client/ revokes the
 * applications it owns, with their tokens; back-channel logout records the sessions to tell; the webhooks take
 * the applications to tell);</li>
 * <li>each feature forgets its rows of the account (every {@link PersonalData}, the parts of the person's data
 * download too, issue 41): a table that refers to {@code users} and that no feature forgets fails the deletion
 * at the {@code users} row's foreign key, and AccountDeletionIT finds it;</li>
 * <li>the {@code users} row; the id goes to {@code deleted_users} and is never given again; the address is
 * free at once;</li>
 * <li>the audit trail keeps its events with {@code usuario #<id>} where the addresses of the account were
 * (the actor column and the subjects), the deletion itself included, every address it ever had too
 * ({@link AccountLines}, issue 39.7); then {@link AccountDeleted}.</li>
 * </ol>
 */
@Service
public class AccountDeletion {

    /** What a deletion came to. */
    public enum Outcome {
        DELETED,
        /** No account with that id (or deleted already). */
        NOT_FOUND,
        /** An admin's own account from the admin's form, someone else's without being admin, or the last admin. */
        NOT_ALLOWED
    }

    private final JdbcTemplate jdbc;
    /** Asked for at each deletion, not at start: features that fill a part use accounts (sanctions/, for one). */
    private final ObjectProvider<PersonalData> parts;
    private final ApplicationEventPublisher events;
    private final EntityManager entities;
    private final Clock clock;
    private final Admins admins;
    private final AccountLines auditLines;

    AccountDeletion(JdbcTemplate jdbc, ObjectProvider<PersonalData> parts, ApplicationEventPublisher events,
            EntityManager entities, Clock clock, Admins admins, AccountLines auditLines) {
        this.admins = admins;
        this.auditLines = auditLines;
        this.jdbc = jdbc;
        this.parts = parts;
        this.events = events;
        this.entities = entities;
        this.clock = clock;
    }

    /**
     * Deletes account {@code userId} for {@code actor}: the account itself (whoever it is) or, for an admin, any
     * other account; never the last enabled admin, counted under {@link Admins}' lock, so two admins deleting
     * their own accounts at once leave one. The caller checked the proof (the page asks for the password, the
     * second factor and the address).
     */
    @Transactional
    public Outcome delete(long userId, Caller actor) {
        admins.lock();
        List<String> found = jdbc.queryForList("select correo from users where id = ? for update", String.class, userId);
        if (found.isEmpty()) {
            return Outcome.NOT_FOUND;
        }
        boolean self = actor.userId() == userId;
        if (!self && !actor.admin()) {
            return Outcome.NOT_ALLOWED;
        }
        if (!admins.remainWithout(userId)) {
            return Outcome.NOT_ALLOWED;
        }
        return deleteLocked(userId, found.get(0), self, self ? "" : " (por un admin)");
    }

    /**
     * A guest's account that the retention job found idle (decisions §24, {@code identity.guests.max-idle}): the same
     * deletion, audited as the job's; nothing when the account is gone or is no longer a guest.
     */
    @Transactional
    public Outcome deleteIdleGuest(long userId) {
        List<String> found = jdbc.queryForList("select rol from users where id = ? for update", String.class, userId);
        if (found.isEmpty()) {
            return Outcome.NOT_FOUND;
        }
        if (!Role.INVITADO.value().equals(found.get(0))) {
            return Outcome.NOT_ALLOWED;
        }
        return deleteLocked(userId, null, false, " (invitado sin uso)");
    }

    /**
     * A child's account whose parent refused the consent ({@code refused}) or did not answer within 7 days (decisions
     * §27): the same deletion, audited as {@code usuario #<id> (consentimiento parental rechazado)} or {@code (sin
     * consentimiento parental)}; nothing when the account is gone.
     */
    @Transactional
    public Outcome deleteWithoutParentalConsent(long userId, boolean refused) {
        List<String> found = jdbc.queryForList("select correo from users where id = ? for update", String.class, userId);
        if (found.isEmpty()) {
            return Outcome.NOT_FOUND;
        }
        return deleteLocked(userId, found.get(0), false,
                refused ? " (consentimiento parental rechazado)" : " (sin consentimiento parental)");
    }

    /** The deletion itself, the account's row locked; {@code correo} null for a guest, which has no address. */
    private Outcome deleteLocked(long userId, String correo, boolean self, String note) {
        Instant now = clock.instant();
        Set<String> addresses = new LinkedHashSet<>();
        if (correo != null) {
            addresses.add(correo);
        }
        addresses.addAll(jdbc.queryForList("select new_correo from email_changes where user_id = ? and used_at is not null",
                String.class, userId));

        events.publishEvent(new AccountChanged(userId));
        events.publishEvent(new AccountDeleting(userId, correo));
        entities.flush(); // what the listeners changed through JPA goes first, so that nothing stale is flushed later

        // each feature forgets its own rows (common/PersonalData, as for the download); a row left that refers to the
        // account fails the users row's delete below (its foreign key), so nothing is left silently
        PersonalData.Person person = new PersonalData.Person(userId, correo, null);
        parts.orderedStream().forEach(part -> part.forget(person));
        jdbc.update("delete from users where id = ?", userId);
        jdbc.update("insert into deleted_users (id, deleted_at) values (?, ?)", userId, Timestamp.from(now));
        entities.clear(); // the account's entities, if any were loaded, are gone

        String subject = "usuario #" + userId;
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_DELETED, subject + note, self ? subject : null));
        auditLines.forgetAddressesAtCommit(userId, addresses);
        events.publishEvent(new AccountDeleted(userId, !self, now));
        return Outcome.DELETED;
    }
}
