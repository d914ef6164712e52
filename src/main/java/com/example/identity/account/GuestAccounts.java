package com.example.identity.account;

import java.time.Clock;
import java.time.Instant;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.AccountService.EmailAlreadyUsedException;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.Names;
import com.example.identity.crypto.Secrets;

/**
 * The accounts of guest players (decisions §24), the {@code users} side of {@code guestaccount/}: a guest is made with no
 * address, and later becomes a full account, the same id and {@code sub}, when the person signs up or logs in with
 * another provider from the link of {@code POST /api/invitados/convertir.php}. Nothing is ever merged: a conversion
 * to an address that has an account is refused and the guest stays a guest.
 */
@Service
public class GuestAccounts {

    private final UserAccountRepository users;
    private final PasswordEncoder passwordEncoder;
    private final Clock clock;
    private final ApplicationEventPublisher events;

    GuestAccounts(UserAccountRepository users, PasswordEncoder passwordEncoder, Clock clock,
            ApplicationEventPublisher events) {
        this.users = users;
        this.passwordEncoder = passwordEncoder;
        this.clock = clock;
        this.events = events;
    }

    /**
     * A new guest: role {@code invitado}, {@code primer_nombre} {@code Invitado NNNN} (four random digits), no
     * address, and {@code passwordHash}, the hash of a random password nobody knows ({@link #unusablePasswordHash}), so
     * nothing logs it in on a page (audited).
     */
    @Transactional
    public UserAccount create(String clientId, String passwordHash) {
        String name = "Invitado %04d".formatted(Secrets.randomInt(10_000));
        UserAccount guest = users.saveAndFlush(UserAccount.guest(name, passwordHash, clock.instant()));
        events.publishEvent(new AuditEvent(AuditEvent.Type.GUEST_CREATED,
                AccountService.describe(guest) + " para la aplicación " + clientId));
        return guest;
    }

    /**
     * The hash of a random password nobody knows, for {@link #create}: made before the guest's transaction, never in
     * it, since an Argon2id hash waits for one of the hashing threads and a transaction would hold its database
     * connection all that time (issue 47: sixteen guests at once took every connection of the pool).
     */
    public String unusablePasswordHash() {
        return passwordEncoder.encode(Secrets.randomUrlSafe(32));
    }

    /** Why a conversion did not happen. */
    public static final class NotAGuestException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotAGuestException() {
            super("la cuenta no es de invitado");
        }
    }

    /**
     * The guest signed up from the conversion link (decisions §18 and §24): the link mailed to {@code correo} was
     * used, so the address is proved; the name and the password are those of the form.
     *
     * @throws NotAGuestException when the account is gone or no longer a guest
     * @throws EmailAlreadyUsedException when the address has an account (nothing is changed)
     */
    @Transactional
    public UserAccount convertBySignUp(long guestId, String primerNombre, String correo, String passwordHash) {
        return convert(guestId, AccountService.cleanName(primerNombre), correo, passwordHash, true, "registro");
    }

    /**
     * The guest logged in with another provider from the conversion link (decisions §19 and §24): the provider's
     * address, proved when the provider asserts it, its name when it gives a usable one (else the guest's stays),
     * no password of its own.
     *
     * @throws NotAGuestException when the account is gone or no longer a guest
     * @throws EmailAlreadyUsedException when the address has an account (nothing is changed)
     * @throws AccountService.InvalidAccountException when the address has not the shape of one
     */
    @Transactional
    public UserAccount convertByProvider(long guestId, String primerNombre, String correo, boolean emailVerified,
            String provider) {
        String normalized = UserAccount.normalizeEmail(correo);
        if (!AccountService.isValidEmail(normalized)) {
            throw new AccountService.InvalidAccountException("correo", "Correo inválido");
        }
        String name = Names.problemWith(primerNombre).isPresent() ? null : Names.clean(primerNombre);
        return convert(guestId, name, normalized, null, emailVerified, provider);
    }

    private UserAccount convert(long guestId, String name, String correo, String passwordHash, boolean verified,
            String how) {
        UserAccount guest = users.lockById(guestId).filter(UserAccount::isGuest).orElseThrow(NotAGuestException::new);
        String normalized = UserAccount.normalizeEmail(correo);
        if (users.existsByCorreo(normalized)) {
            throw new EmailAlreadyUsedException();
        }
        String before = AccountService.describe(guest);
        Instant now = clock.instant();
        guest.convertFromGuest(normalized, name == null ? guest.getPrimerNombre() : name, passwordHash, verified, now);
        try {
            users.saveAndFlush(guest);
        }
        catch (DataIntegrityViolationException raced) {
            // another account took the address meanwhile (the unique constraint): this transaction rolls back
            throw new EmailAlreadyUsedException();
        }
        // a new role: every instance forgets the cached tokens (rol, correo), the applications hear of it
        // (usuario.actualizado); a guest has no session to end
        events.publishEvent(new AccountChanged(guest.getId()));
        events.publishEvent(new AuditEvent(AuditEvent.Type.GUEST_CONVERTED,
                before + " → " + AccountService.describe(guest) + " (" + how + ")", normalized));
        return guest;
    }
}
