package com.example.identity.account;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.IdentityProperties;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.ListQuery;
import com.example.identity.common.Names;
import com.example.identity.crypto.Secrets;

/** Creates and changes accounts. Every other feature goes through here, never to the repository. */
@Service
public class AccountService {

    /** Shortest password a user may choose (ASVS 5.0 6.2.1 asks for at least 8; we ask for 12). */
    public static final int MIN_PASSWORD_LENGTH = 12;
    /** Longest password accepted, to bound the hashing work. */
    public static final int MAX_PASSWORD_LENGTH = 256;

    /** A pragmatic e-mail shape: something@host.tld, no spaces, at most 254 characters. */
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s.]+(\\.[^@\\s.]+)+");

    private final UserAccountRepository users;
    private final PasswordEncoder passwordEncoder;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final Duration oneTimePasswordTtl;

    private final AccountDeletion deletion;

    AccountService(UserAccountRepository users, PasswordEncoder passwordEncoder, Clock clock,
            ApplicationEventPublisher events, IdentityProperties properties, AccountDeletion deletion) {
        this.deletion = deletion;
        this.users = users;
        this.passwordEncoder = passwordEncoder;
        this.clock = clock;
        this.events = events;
        this.oneTimePasswordTtl = properties.oneTimePassword().ttl();
    }

    /**
     * An account made by an admin, with a random password shown once to that admin.
     *
     * @throws InvalidAccountException naming the field and the Spanish reason
     * @throws EmailAlreadyUsedException when the e-mail address is taken
     */
    @Transactional
    public NewAccount createWithTemporaryPassword(String primerNombre, String correo, Role rol) {
        String name = cleanName(primerNombre);
        String email = correo == null ? "" : correo.strip();
        if (!isValidEmail(email)) {
            throw new InvalidAccountException("correo", "Correo inválido");
        }
        if (rol == null) {
            throw new InvalidAccountException("rol", "Rol inválido");
        }
        String password = oneTimePassword();
        UserAccount account = create(name, email, password, rol);
        account.requirePasswordChange(clock.instant().plus(oneTimePasswordTtl));
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_CREATED, describe(account)));
        return new NewAccount(account, password);
    }

    /**
     * The rule of every name here (common/Names): trimmed, 1 to 100, no control characters.
     *
     * @throws InvalidAccountException with field {@code primer_nombre} and the Spanish reason
     */
    private static String cleanName(String primerNombre) {
        Names.problemWith(primerNombre).ifPresent(problem -> {
            throw new InvalidAccountException("primer_nombre",
                    problem == Names.Problem.MISSING ? "Falta el nombre" : "Nombre demasiado largo o inválido");
        });
        return Names.clean(primerNombre);
    }

    /**
     * A user changes their own name ({@code /cuenta/}), with the rule of a name given by an admin. Sessions
     * stay; cached tokens are looked up again on every instance ({@link ProfileChanged}), so
     * {@code /api/userinfo.php} and {@code /oauth/userinfo.php} show the new name at once, and the next
     * id_token carries it (token requests load the account). Audited when the name changes.
     *
     * @return the account
     * @throws InvalidAccountException with field {@code primer_nombre} and the Spanish reason
     */
    @Transactional
    public UserAccount rename(long userId, String primerNombre) {
        String name = cleanName(primerNombre);
        UserAccount user = users.findById(userId)
                .orElseThrow(() -> new InvalidAccountException("primer_nombre", "Cuenta no encontrada"));
        applyName(user, name);
        return user;
    }

    /** A cleaned name given to an account: applied, announced and audited when it differs. */
    private void applyName(UserAccount user, String name) {
        String before = user.getPrimerNombre();
        if (!before.equals(name)) {
            user.rename(name, clock.instant());
            events.publishEvent(new ProfileChanged(user.getId()));
            events.publishEvent(new AuditEvent(AuditEvent.Type.NAME_CHANGED,
                    describe(user) + ": «" + before + "» → «" + name + "»"));
        }
    }

    /** Whether {@code correo} (already trimmed) has the shape this service accepts for an e-mail address. */
    public static boolean isValidEmail(String correo) {
        return correo != null && correo.length() <= 254 && EMAIL.matcher(correo).matches();
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
        return live(userId).filter(u -> u.getId() != admin.userId()).map(u -> {
            String password = oneTimePassword();
            Instant now = clock.instant();
            u.resetPassword(passwordEncoder.encode(password), now, now.plus(oneTimePasswordTtl));
            events.publishEvent(new AccountChanged(userId));
            events.publishEvent(new AuditEvent(AuditEvent.Type.PASSWORD_RESET, describe(u)));
            return new NewAccount(u, password);
        });
    }

    /** The first administrator, with a password that was logged: it must be changed at the first login. */
    @Transactional
    UserAccount createWithLoggedPassword(String primerNombre, String correo, String rawPassword, Role rol) {
        UserAccount account = create(primerNombre, correo, rawPassword, rol);
        account.requirePasswordChange(null);
        return account;
    }

    private static String oneTimePassword() {
        return Secrets.randomUrlSafe(15);
    }

    /** How the audit trail names an account: its id and e-mail, never anything secret. */
    private static String describe(UserAccount account) {
        return "usuario #" + account.getId() + " " + account.getCorreo();
    }

    /**
     * A user changes their own password, proving the current one. A wrong current password counts as a
     * failed login ({@link PasswordCheckFailed}); a change ends every other session of the account
     * ({@link PasswordChanged}), {@code keepSessionId} stays.
     *
     * @return the updated account
     * @throws InvalidAccountException with field {@code actual} or {@code nueva} and the Spanish reason
     */
    @Transactional
    public UserAccount changePassword(long userId, String current, String chosen, String keepSessionId) {
        UserAccount user = users.findById(userId).orElseThrow(() -> new InvalidAccountException("actual", "Cuenta no encontrada"));
        if (current == null || !passwordEncoder.matches(current, user.getPasswordHash())) {
            events.publishEvent(new PasswordCheckFailed(user.getCorreo()));
            throw new InvalidAccountException("actual", "La contraseña actual no es correcta");
        }
        checkNewPassword(user, chosen, current);
        user.changePasswordHash(passwordEncoder.encode(chosen), clock.instant());
        events.publishEvent(new PasswordChanged(userId, user.getCorreo(), keepSessionId));
        events.publishEvent(new AuditEvent(AuditEvent.Type.PASSWORD_CHANGED, describe(user)));
        return user;
    }

    /**
     * The rules of a password a user chooses, one place for {@code /cuenta/contrasena} and
     * {@code /login/restablecer}: 12 to 256 characters, and not the current password. {@code current} is the
     * current password when the form gave it (already checked against the hash); without it (a recovery link)
     * the hash is asked, one more hashing of a password that is about to be hashed anyway.
     *
     * @throws InvalidAccountException with field {@code nueva} and the Spanish reason
     */
    private void checkNewPassword(UserAccount user, String chosen, String current) {
        if (chosen == null || chosen.length() < MIN_PASSWORD_LENGTH) {
            throw new InvalidAccountException("nueva", "La nueva contraseña debe tener al menos " + MIN_PASSWORD_LENGTH + " caracteres");
        }
        if (chosen.length() > MAX_PASSWORD_LENGTH) {
            throw new InvalidAccountException("nueva", "La nueva contraseña es demasiado larga");
        }
        if (current != null ? chosen.equals(current) : passwordEncoder.matches(chosen, user.getPasswordHash())) {
            throw new InvalidAccountException("nueva", "La nueva contraseña debe ser distinta de la actual");
        }
    }

    /**
     * Whether {@code raw} is the account's password, to confirm a sensitive change (a second factor turned
     * off, new recovery codes). A wrong one counts as a failed login ({@link PasswordCheckFailed}).
     */
    @Transactional
    public boolean passwordMatches(long userId, String raw) {
        return users.findById(userId).map(user -> {
            if (raw != null && passwordEncoder.matches(raw, user.getPasswordHash())) {
                return true;
            }
            events.publishEvent(new PasswordCheckFailed(user.getCorreo()));
            return false;
        }).orElse(false);
    }

    /**
     * A forgotten password replaced through a recovery link (decisions §17): the same rules as a change
     * ({@link #checkNewPassword}: the new one differs from the forgotten one too), without the current password
     * (the link proved the mailbox). Every session of the account ends
     * ({@link PasswordChanged} with no session kept), tokens stay; audited.
     *
     * @throws InvalidAccountException with field {@code nueva} and the Spanish reason
     */
    @Transactional
    public UserAccount recoverPassword(long userId, String chosen) {
        UserAccount user = users.findById(userId).filter(UserAccount::isEnabled)
                .orElseThrow(() -> new InvalidAccountException("nueva", "Cuenta no encontrada"));
        checkNewPassword(user, chosen, null);
        user.changePasswordHash(passwordEncoder.encode(chosen), clock.instant());
        // the link reached the mailbox: the address is proved (decisions §18)
        user.markEmailVerified(clock.instant());
        events.publishEvent(new PasswordChanged(userId, user.getCorreo(), null));
        events.publishEvent(new AuditEvent(AuditEvent.Type.PASSWORD_RECOVERED, describe(user)));
        return user;
    }

    /**
     * Changes a role; the user's sessions end so the new role applies at once, and a drop to {@code user}
     * revokes their personal tokens ({@link RoleChanged}, in this transaction).
     */
    @Transactional
    public boolean changeRole(Caller admin, long userId, Role rol) {
        return live(userId).filter(u -> u.getId() != admin.userId()).map(u -> {
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
                describe(u) + ": " + before.value() + " → " + rol.value()));
    }

    /** Disables an account: no login, its sessions end, its tokens are refused. Not one's own. */
    @Transactional
    public boolean disable(Caller admin, long userId) {
        return live(userId).filter(u -> u.getId() != admin.userId()).map(u -> {
            applyDisable(u);
            return true;
        }).orElse(false);
    }

    private void applyDisable(UserAccount u) {
        u.disable(clock.instant());
        events.publishEvent(new AccountChanged(u.getId()));
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_DISABLED, describe(u)));
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
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_ENABLED, describe(u)));
    }

    /** What an admin's change of an account came to ({@link #update}, {@link #delete}). */
    public enum AdminOutcome {
        DONE,
        /** No such account, or a deleted one. */
        NOT_FOUND,
        /** The admin's own account: no one disables, demotes or deletes themselves. */
        OWN_ACCOUNT
    }

    /**
     * An admin changes any of the role, the active flag and the name of an account, all or nothing, with the
     * same rules, events and audit lines as the admin page's buttons ({@link #changeRole}, {@link #disable},
     * {@link #enable}, and {@link #rename}'s rule of a name): a new role or a disabled account ends its sessions
     * on every instance. A value equal to the current one changes nothing. An admin may rename themselves,
     * never change their own role or active flag. Null means "leave it".
     *
     * @throws InvalidAccountException with field {@code primer_nombre} for a bad name (nothing changed)
     */
    @Transactional
    public AdminOutcome update(Caller admin, long userId, Role rol, Boolean activo, String primerNombre) {
        String name = primerNombre == null ? null : cleanName(primerNombre);
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
        if (name != null) {
            applyName(u, name);
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
     * the person's own and the admin page's). There is no "last admin" rule to apply: the caller is an admin who
     * cannot delete, demote or disable themselves, so at least one admin is always left.
     */
    @Transactional
    public AdminOutcome delete(Caller admin, long userId) {
        if (users.findById(userId).isEmpty()) {
            return AdminOutcome.NOT_FOUND;
        }
        if (userId == admin.userId()) {
            return AdminOutcome.OWN_ACCOUNT;
        }
        return deletion.delete(userId, admin) == AccountDeletion.Outcome.DELETED ? AdminOutcome.DONE
                : AdminOutcome.NOT_FOUND;
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

    /** The e-mail addresses of the given accounts (the owners of the rows of one page). */
    @Transactional(readOnly = true)
    public Map<Long, String> emailsOf(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<Long, String> emails = new HashMap<>();
        users.findEmails(ids).forEach(row -> emails.put(row.getId(), row.getCorreo()));
        return emails;
    }

    @Transactional(readOnly = true)
    public List<UserAccount> listAll() {
        return users.findAll(Sort.by("id"));
    }

    /**
     * Creates an account with a freshly hashed password.
     *
     * @throws EmailAlreadyUsedException when the e-mail address (compared case-insensitively) is taken
     */
    @Transactional
    public UserAccount create(String primerNombre, String correo, String rawPassword, Role rol) {
        String normalized = UserAccount.normalizeEmail(correo);
        if (users.existsByCorreo(normalized)) {
            throw new EmailAlreadyUsedException();
        }
        return users.save(new UserAccount(primerNombre.strip(), normalized, passwordEncoder.encode(rawPassword), rol,
                clock.instant()));
    }

    /**
     * The person proved the account's address (decisions §18: a provider that asserts it). Cached tokens are
     * looked up again on every instance ({@link ProfileChanged}), so UserInfo says so at once.
     *
     * @return whether the address was not proved before
     */
    @Transactional
    public boolean markEmailVerified(long userId) {
        return users.findById(userId).map(user -> {
            if (!user.markEmailVerified(clock.instant())) {
                return false;
            }
            events.publishEvent(new ProfileChanged(userId));
            events.publishEvent(new AuditEvent(AuditEvent.Type.EMAIL_VERIFIED, describe(user)));
            return true;
        }).orElse(false);
    }

    /**
     * An account a person made for themself (decisions §18), once the link mailed to {@code correo} was used:
     * role {@code user}, the address proved, the password already hashed when the form was sent.
     *
     * @throws EmailAlreadyUsedException when the address was taken meanwhile
     */
    @Transactional
    public UserAccount createSignedUp(String primerNombre, String correo, String passwordHash) {
        String normalized = UserAccount.normalizeEmail(correo);
        if (users.existsByCorreo(normalized)) {
            throw new EmailAlreadyUsedException();
        }
        Instant now = clock.instant();
        UserAccount account = new UserAccount(cleanName(primerNombre), normalized, passwordHash, Role.USER, now);
        account.markEmailVerified(now);
        users.saveAndFlush(account);
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_SIGNED_UP, describe(account), normalized));
        return account;
    }

    /**
     * An account made by the first login with another provider (decisions §19): role {@code user}, the
     * provider's address (proved only when the provider asserts it), and no password of its own (a random
     * one nobody knows, {@code password_set} false) until a recovery sets one.
     *
     * @throws EmailAlreadyUsedException when the address has an account
     */
    @Transactional
    public UserAccount createFederated(String primerNombre, String correo, boolean emailVerified, String provider) {
        String normalized = UserAccount.normalizeEmail(correo);
        if (!isValidEmail(normalized)) {
            throw new InvalidAccountException("correo", "Correo inválido");
        }
        if (users.existsByCorreo(normalized)) {
            throw new EmailAlreadyUsedException();
        }
        String name = Names.problemWith(primerNombre).isPresent() ? normalized.substring(0, normalized.indexOf('@'))
                : Names.clean(primerNombre);
        Instant now = clock.instant();
        UserAccount account = new UserAccount(name.length() > 100 ? name.substring(0, 100) : name, normalized,
                passwordEncoder.encode(Secrets.randomUrlSafe(32)), Role.USER, now);
        account.withoutPassword();
        if (emailVerified) {
            account.markEmailVerified(now);
        }
        users.saveAndFlush(account);
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_SIGNED_UP, describe(account) + " (" + provider + ")",
                normalized));
        return account;
    }

    /** The rules of a password chosen at sign-up (those of {@code /cuenta/contrasena}), field {@code password}. */
    public static void checkChosenPassword(String chosen) {
        if (chosen == null || chosen.length() < MIN_PASSWORD_LENGTH) {
            throw new InvalidAccountException("password", "La contraseña debe tener al menos " + MIN_PASSWORD_LENGTH + " caracteres");
        }
        if (chosen.length() > MAX_PASSWORD_LENGTH) {
            throw new InvalidAccountException("password", "La contraseña es demasiado larga");
        }
    }

    /** The rule of a name, for a form that checks it before anything else ({@code primer_nombre}). */
    public static String checkName(String primerNombre) {
        return cleanName(primerNombre);
    }

    /** A password hash computed now with the current setting (a sign-up stores it until the link is used). */
    public String hash(String rawPassword) {
        return passwordEncoder.encode(rawPassword);
    }

    @Transactional(readOnly = true)
    public Optional<UserAccount> findById(long id) {
        return users.findById(id);
    }

    @Transactional(readOnly = true)
    public Optional<UserAccount> findByEmail(String correo) {
        return users.findByCorreo(UserAccount.normalizeEmail(correo));
    }

    @Transactional(readOnly = true)
    public boolean isEmpty() {
        return users.count() == 0;
    }

    /** A new account and its one-time password. */
    public record NewAccount(UserAccount account, String temporaryPassword) {
        @Override
        public String toString() {
            return "NewAccount[id=" + account.getId() + "]";
        }
    }

    /** An account refused: {@code field} is the form field, the message the Spanish reason. */
    public static class InvalidAccountException extends RuntimeException {
        private final String field;

        InvalidAccountException(String field, String message) {
            super(message);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }

    /** Thrown when an account with the same e-mail address already exists. */
    public static class EmailAlreadyUsedException extends RuntimeException {
        EmailAlreadyUsedException() {
            super("correo ya registrado");
        }
    }
}
