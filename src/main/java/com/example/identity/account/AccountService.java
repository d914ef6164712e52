package com.example.identity.account;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.audit.AuditEvent;
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

    AccountService(UserAccountRepository users, PasswordEncoder passwordEncoder, Clock clock,
            ApplicationEventPublisher events) {
        this.users = users;
        this.passwordEncoder = passwordEncoder;
        this.clock = clock;
        this.events = events;
    }

    /**
     * The rule of every name here (common/Names): trimmed, 1 to 100, no control characters.
     *
     * @throws InvalidAccountException with field {@code primer_nombre} and the Spanish reason
     */
    static String cleanName(String primerNombre) {
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
    void applyName(UserAccount user, String name) {
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

    /** The first administrator, with a password that was logged: it must be changed at the first login. */
    @Transactional
    UserAccount createWithLoggedPassword(String primerNombre, String correo, String rawPassword, Role rol) {
        UserAccount account = create(primerNombre, correo, rawPassword, rol);
        account.requirePasswordChange(null);
        return account;
    }

    /** How the audit trail names an account: its id and e-mail (a guest: its id, as a guest), never anything secret. */
    static String describe(UserAccount account) {
        return "usuario #" + account.getId() + (account.isGuest() ? " (invitado)" : " " + account.getCorreo());
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
        checkNewPassword(passwordEncoder, user, chosen, current);
        user.changePasswordHash(passwordEncoder.encode(chosen), clock.instant());
        events.publishEvent(new PasswordChanged(userId, user.getCorreo(), keepSessionId));
        events.publishEvent(new AuditEvent(AuditEvent.Type.PASSWORD_CHANGED, describe(user)));
        return user;
    }

    /**
     * The rules of a password a user chooses, one place for {@code /cuenta/contrasena} and
     * {@code /login/restablecer} ({@link AccountRecoveries}): 12 to 256 characters, and not the current password. {@code current} is the
     * current password when the form gave it (already checked against the hash); without it (a recovery link)
     * the hash is asked, one more hashing of a password that is about to be hashed anyway.
     *
     * @throws InvalidAccountException with field {@code nueva} and the Spanish reason
     */
    static void checkNewPassword(PasswordEncoder passwordEncoder, UserAccount user, String chosen, String current) {
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
        saveNew(account);
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
        saveNew(account);
        events.publishEvent(new AuditEvent(AuditEvent.Type.USER_SIGNED_UP, describe(account) + " (" + provider + ")",
                normalized));
        return account;
    }

    /**
     * Inserts a new account now. Two transactions that both found the address free (two sign-up links of one
     * address used at once) meet at the unique constraint of {@code users.correo}: the second one's insert is
     * the address taken, as the check before it would have said a moment later.
     */
    private void saveNew(UserAccount account) {
        try {
            users.saveAndFlush(account);
        }
        catch (DataIntegrityViolationException raced) {
            // the transaction is spoilt on PostgreSQL: the constraint's name (V1) tells, not another query
            String reason = String.valueOf(raced.getMostSpecificCause().getMessage()).toLowerCase(java.util.Locale.ROOT);
            if (!reason.contains("uk_users_correo")) {
                throw raced;
            }
            throw new EmailAlreadyUsedException();
        }
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
