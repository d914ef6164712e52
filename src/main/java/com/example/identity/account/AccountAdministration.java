package com.example.identity.account;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.IdentityProperties;
import com.example.identity.account.AccountService.InvalidAccountException;
import com.example.identity.account.AccountService.NewAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.ListQuery;
import com.example.identity.crypto.Secrets;

/**
 * What an admin does to other people's accounts, one service behind the admin page ({@code dashboard/}) and the
 * administration API ({@code /api/usuarios/*.php}, decisions §23): create with a one-time password, a new
 * one-time password, role, disable and enable, the API's all-or-nothing update, deletion (through
 * {@link AccountDeletion}, the person's own deletion too), and the paged list. Never one's own role, active flag
 * or account. What a person does to their own account (name, password, recovery, sign-up) is {@link AccountService}.
 */
@Service
public class AccountAdministration {

    private final UserAccountRepository users;
    private final AccountService accounts;
    private final AccountDeletion deletion;
    private final PasswordEncoder passwordEncoder;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final Duration oneTimePasswordTtl;
    private final Admins admins;

    AccountAdministration(UserAccountRepository users, AccountService accounts, AccountDeletion deletion,
            PasswordEncoder passwordEncoder, Clock clock, ApplicationEventPublisher events, IdentityProperties properties,
            Admins admins) {
        this.admins = admins;
        this.users = users;
        this.accounts = accounts;
        this.deletion = deletion;
        this.passwordEncoder = passwordEncoder;
        this.clock = clock;
        this.events = events;
        this.oneTimePasswordTtl = properties.oneTimePassword().ttl();
    }

    /** What an admin's change of an account came to ({@link #update}, {@link #delete}). */
    public enum AdminOutcome {
        DONE,
        /** No such account, or a deleted one. */
        NOT_FOUND,
        /** The admin's own account: no one disables, demotes or deletes themselves. */
        OWN_ACCOUNT,
        /** It would leave no enabled admin (another admin demoted, disabled or deleted at the same moment). */
        LAST_ADMIN,
        /** A new role for a guest (decisions §24): a guest becomes a full account only by keeping its progress. */
        GUEST_ACCOUNT,
        /** A birth date for a guest (D50): a guest has none; it is asked when the guest keeps its progress. */
        GUEST_BIRTH_DATE
    }

    /**
     * An account made by an admin, with a random password shown once to that admin.
     *
     * @throws InvalidAccountException naming the field and the Spanish reason
     * @throws EmailAlreadyUsedException when the e-mail address is taken
     */
    @Transactional
    public NewAccount createWithTemporaryPassword(String primerNombre, String correo, Role rol) {
        String name = AccountService.cleanName(primerNombre);
        String email = correo == null ? "" : correo.strip();
        if (!AccountService.isValidEmail(email)) {
            throw new InvalidAccountException("correo", "Correo inválido");
        }
        if (rol == null) {
            throw new InvalidAccountException("rol", "Rol inválido");
        }
        String password = oneTimePassword();
        UserAccount account = accounts.create(name, email, password, rol);
        account.requirePasswordChange(clock.instant().plus(oneTimePasswordTtl));
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_CREATED, AccountService.describe(account)));
        return new NewAccount(account, password);
    }

    /**
     * An admin gives an account a new one-time password (shown once to the admin, valid for
     * {@code identity.one-time-password.ttl}); the user must choose their own at the next login, and
     * every session of the account ends. Not one's own account.
     *
     * @return the account and its one-time password; empty when there is no such account or it is the admin's
     */
    @Transactional
    public Optional<NewAccount> resetPassword(Caller admin, long userId) {
        // a guest has no address to log in with (decisions §24): no one-time password for it
        return live(userId).filter(u -> u.getId() != admin.userId() && !u.isGuest()).map(u -> {
            String password = oneTimePassword();
            Instant now = clock.instant();
            u.resetPassword(passwordEncoder.encode(password), now, now.plus(oneTimePasswordTtl));
            events.publishEvent(new AccountChanged(userId));
            events.publishEvent(new AuditEvent(AuditEvent.Type.PASSWORD_RESET, AccountService.describe(u)));
            return new NewAccount(u, password);
        });
    }

    private static String oneTimePassword() {
        return Secrets.randomUrlSafe(15);
    }

    /**
     * Changes a role; the user's sessions end so the new role applies at once, and a drop to {@code user}
     * revokes their personal tokens ({@link RoleChanged}, in this transaction). Refused (false) for one's own
     * role, and when it would leave no enabled admin ({@link Admins}, counted under its lock).
     */
    @Transactional
    public boolean changeRole(Caller admin, long userId, Role rol) {
        if (rol.isGuest()) {
            return false;
        }
        admins.lock();
        // a guest becomes a full account only by keeping its progress, with an address (decisions §24)
        return live(userId).filter(u -> u.getId() != admin.userId() && !u.isGuest())
                .filter(u -> rol == Role.ADMIN || admins.remainWithout(u.getId())).map(u -> {
            applyRole(u, rol);
            return true;
        }).orElse(false);
    }

    private void applyRole(UserAccount u, Role rol) {
        Role before = u.getRol();
        u.changeRole(rol, clock.instant());
        events.publishEvent(new RoleChanged(u.getId(), before, rol));
        events.publishEvent(new AccountChanged(u.getId()));
        events.publishEvent(new AuditEvent(AuditEvent.Type.ROLE_CHANGED,
                AccountService.describe(u) + ": " + before.value() + " → " + rol.value()));
    }

    /**
     * Disables an account: no login, its sessions end, its tokens are refused. Not one's own, nor the last
     * enabled admin ({@link Admins}).
     */
    @Transactional
    public boolean disable(Caller admin, long userId) {
        admins.lock();
        return live(userId).filter(u -> u.getId() != admin.userId()).filter(u -> admins.remainWithout(u.getId())).map(u -> {
            applyDisable(u);
            return true;
        }).orElse(false);
    }

    /** A parent withdrew the consent of a child's account (decisions §27): disabled as an admin disables one. */
    @Transactional
    public boolean disableWithoutParentalConsent(long userId) {
        return live(userId).filter(UserAccount::isEnabled).map(u -> {
            applyDisable(u);
            return true;
        }).orElse(false);
    }

    private void applyDisable(UserAccount u) {
        u.disable(clock.instant());
        events.publishEvent(new AccountChanged(u.getId()));
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_DISABLED, AccountService.describe(u)));
    }

    @Transactional
    public boolean enable(long userId) {
        return live(userId).map(u -> {
            applyEnable(u);
            return true;
        }).orElse(false);
    }

    private void applyEnable(UserAccount u) {
        u.enable(clock.instant());
        // nothing to end (a disabled account has no session), but caches and webhooks (issue 29) hear of it
        events.publishEvent(new AccountChanged(u.getId()));
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_ENABLED, AccountService.describe(u)));
    }

    /**
     * An admin changes any of the role, the active flag, the name and the birth date of an account, all or nothing,
     * with the same rules, events and audit lines as the admin page's buttons ({@link #changeRole}, {@link #disable},
     * {@link #enable}, and {@link AccountService#rename}'s rule of a name): a new role or a disabled account ends its sessions
     * on every instance. A value equal to the current one changes nothing. An admin may rename themselves and set
     * their own birth date, never change their own role or active flag; nobody leaves the service without an enabled
     * admin ({@link Admins}). Null means "leave it". The birth date (already checked by the caller) and the parent's
     * address {@code tutor} go to {@code minors/} as {@link BirthDateSet}, first, in this transaction (D50).
     *
     * @throws InvalidAccountException with field {@code primer_nombre} for a bad name (nothing changed)
     * @throws RuntimeException what {@code minors/} refuses of the birth date and parent's address (nothing changed)
     */
    @Transactional
    public AdminOutcome update(Caller admin, long userId, Role rol, Boolean activo, String primerNombre,
            @Nullable LocalDate birth, @Nullable String tutor) {
        String name = primerNombre == null ? null : AccountService.cleanName(primerNombre);
        admins.lock();
        var found = live(userId);
        if (found.isEmpty()) {
            return AdminOutcome.NOT_FOUND;
        }
        UserAccount u = found.get();
        boolean newRole = rol != null && rol != u.getRol();
        boolean newActive = activo != null && activo != u.isEnabled();
        if (u.getId() == admin.userId() && (newRole || newActive)) {
            return AdminOutcome.OWN_ACCOUNT;
        }
        if (newRole && (u.isGuest() || rol.isGuest())) {
            return AdminOutcome.GUEST_ACCOUNT;
        }
        if (birth != null && u.isGuest()) {
            return AdminOutcome.GUEST_BIRTH_DATE;
        }
        if ((newRole && rol != Role.ADMIN || newActive && !activo) && !admins.remainWithout(u.getId())) {
            return AdminOutcome.LAST_ADMIN;
        }
        if (birth != null) {
            // first: minors/ may refuse it (a child's date without a parent's address), before anything else changed
            events.publishEvent(new BirthDateSet(u.getId(), u.getCorreo(), u.getPrimerNombre(), birth, tutor));
        }
        if (name != null) {
            accounts.applyName(u, name);
        }
        if (newRole) {
            applyRole(u, rol);
        }
        if (newActive) {
            if (activo) {
                applyEnable(u);
            }
            else {
                applyDisable(u);
            }
        }
        return AdminOutcome.DONE;
    }

    /**
     * An admin deletes an account, not their own ({@link AccountDeletion}: decisions §20, the same deletion as
     * the person's own and the admin page's), nor the last enabled admin: the caller cannot delete, demote or
     * disable themselves, but another admin may be demoting them at the same moment ({@link Admins}).
     */
    @Transactional
    public AdminOutcome delete(Caller admin, long userId) {
        if (users.findById(userId).isEmpty()) {
            return AdminOutcome.NOT_FOUND;
        }
        if (userId == admin.userId()) {
            return AdminOutcome.OWN_ACCOUNT;
        }
        return switch (deletion.delete(userId, admin)) {
            case DELETED -> AdminOutcome.DONE;
            case NOT_FOUND -> AdminOutcome.NOT_FOUND;
            case NOT_ALLOWED -> AdminOutcome.LAST_ADMIN;
        };
    }

    /**
     * Takes the admins' lock ({@link Admins}) in the caller's transaction, for a change made elsewhere that may keep an
     * admin out without changing the account (a sanction in every application, sanctions/): two admins suspending each
     * other at the same moment queue here, and the second sees the first's sanction on itself.
     */
    public void holdAdminsLock() {
        admins.lock();
    }

    /** An account that exists (a deleted one is gone: decisions §20). */
    private Optional<UserAccount> live(long userId) {
        return users.findById(userId);
    }

    /** One page of the accounts, by id; with a search, those whose e-mail or name contains it. */
    @Transactional(readOnly = true)
    public Slice<UserAccount> page(ListQuery query) {
        return query.searching() ? users.search(query.pattern(), query.pageable())
                : users.findAllByOrderByIdAsc(query.pageable());
    }

    /**
     * The e-mail addresses of the given accounts (the owners of the rows of one page); a guest, who has none
     * (decisions §24), as {@code invitado #<id>}.
     */
    @Transactional(readOnly = true)
    public Map<Long, String> emailsOf(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<Long, String> emails = new HashMap<>();
        users.findEmails(ids).forEach(row -> emails.put(row.getId(),
                row.getCorreo() == null ? "invitado #" + row.getId() : row.getCorreo()));
        return emails;
    }

    @Transactional(readOnly = true)
    public List<UserAccount> listAll() {
        return users.findAll(Sort.by("id"));
    }
}
