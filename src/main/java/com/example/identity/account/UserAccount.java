package com.example.identity.account;

import java.time.Instant;
import java.util.Locale;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A person who can log in: the {@code User} resource of the specification (§2.1). This package publishes some of
 * its columns to others as the view {@code account_principals} (V96, docs/architecture.md "Published views"): a
 * migration that changes one of them recreates that view.
 */
@Entity
@Table(name = "users")
public class UserAccount {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "primer_nombre", nullable = false, length = 100)
    private String primerNombre;

    /** Null for a guest (decisions §24), who has no address until it is converted; every other account has one. */
    @Column(length = 254, unique = true)
    private String correo;

    @Column(name = "password_hash", nullable = false)
    private String passwordHash;

    @Column(nullable = false, length = 20)
    private Role rol;

    @Column(nullable = false)
    private boolean enabled;

    @Column(name = "password_change_required", nullable = false)
    private boolean passwordChangeRequired;

    /** When the one-time password set by an admin stops working; null when the user chose the password. */
    @Column(name = "one_time_password_expires_at")
    private Instant oneTimePasswordExpiresAt;

    /** The person proved this address (decisions §18); false for accounts made by an admin until then. */
    @Column(name = "email_verified", nullable = false)
    private boolean emailVerified;

    /** False for an account made by a federated login, until a recovery sets a password (decisions §19). */
    @Column(name = "password_set", nullable = false)
    private boolean passwordSet = true;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    /** When the account was deleted (decisions §20): the row is a tombstone that keeps the id only. */

    protected UserAccount() {
    }

    public UserAccount(String primerNombre, String correo, String passwordHash, Role rol, Instant now) {
        this.primerNombre = primerNombre;
        this.correo = normalizeEmail(correo);
        this.passwordHash = passwordHash;
        this.rol = rol;
        this.enabled = true;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * A guest player (decisions §24): role {@code invitado}, {@code primer_nombre} {@code Invitado NNNN}, no address,
     * and a password hash of a random password nobody knows ({@code password_set} false): nothing logs it in on a page.
     */
    static UserAccount guest(String primerNombre, String unusablePasswordHash, Instant now) {
        UserAccount guest = new UserAccount();
        guest.primerNombre = primerNombre;
        guest.passwordHash = unusablePasswordHash;
        guest.passwordSet = false;
        guest.rol = Role.INVITADO;
        guest.enabled = true;
        guest.createdAt = now;
        guest.updatedAt = now;
        return guest;
    }

    /** Whether this is a guest player's account, without an address (decisions §24). */
    public boolean isGuest() {
        return rol == Role.INVITADO;
    }

    /**
     * A guest becomes a full account (decisions §24): the same id, role {@code user}, the address given (proved when
     * {@code emailVerified}), the name, and the password chosen at sign-up ({@code passwordHash}, already hashed) or
     * none of its own (a login with another provider: {@code null}).
     */
    void convertFromGuest(String newCorreo, String newPrimerNombre, String chosenPasswordHash, boolean verified,
            Instant now) {
        if (!isGuest()) {
            throw new IllegalStateException("only a guest is converted");
        }
        this.correo = normalizeEmail(newCorreo);
        this.primerNombre = newPrimerNombre;
        if (chosenPasswordHash != null) {
            this.passwordHash = chosenPasswordHash;
            this.passwordSet = true;
        }
        this.emailVerified = verified;
        this.rol = Role.USER;
        this.updatedAt = now;
    }

    /** E-mail addresses are compared case-insensitively: they are stored and looked up lower-cased. */
    public static String normalizeEmail(String correo) {
        return correo.strip().toLowerCase(Locale.ROOT);
    }

    public Long getId() {
        return id;
    }

    public String getPrimerNombre() {
        return primerNombre;
    }

    public String getCorreo() {
        return correo;
    }

    public String getPasswordHash() {
        return passwordHash;
    }

    public Role getRol() {
        return rol;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    /** Whether the person has a password of their own (not an account made by a federated login alone). */
    public boolean isPasswordSet() {
        return passwordSet;
    }

    public boolean isEmailVerified() {
        return emailVerified;
    }

    /**
     * The person proved the address (a confirmed link, a completed recovery, a provider's assertion).
     *
     * @return whether it was not proved before
     */
    boolean markEmailVerified(Instant now) {
        if (emailVerified) {
            return false;
        }
        this.emailVerified = true;
        this.updatedAt = now;
        return true;
    }

    public boolean isPasswordChangeRequired() {
        return passwordChangeRequired;
    }

    /** A new password chosen by the user: the one-time password, if any, is gone. */
    public void changePasswordHash(String newHash, Instant now) {
        this.passwordHash = newHash;
        this.passwordSet = true;
        this.passwordChangeRequired = false;
        this.oneTimePasswordExpiresAt = null;
        this.updatedAt = now;
    }

    /**
     * The same password, hashed again at the current setting after a login proved it (an imported hash or
     * an older Argon2id setting): nothing else changes, a required password change stays required.
     */
    public void upgradePasswordHash(String newHash, Instant now) {
        this.passwordHash = newHash;
        this.updatedAt = now;
    }

    /**
     * The password was set by someone else and must be changed at the next login; it stops working at
     * {@code expiresAt} (null: it does not expire, as for the first administrator's).
     */
    void requirePasswordChange(Instant expiresAt) {
        this.passwordChangeRequired = true;
        this.oneTimePasswordExpiresAt = expiresAt;
    }

    /** An admin set a new one-time password. */
    void resetPassword(String newHash, Instant now, Instant expiresAt) {
        this.passwordHash = newHash;
        this.updatedAt = now;
        requirePasswordChange(expiresAt);
    }

    public Instant getOneTimePasswordExpiresAt() {
        return oneTimePasswordExpiresAt;
    }

    /** Whether the password is a one-time password whose time is up at {@code now}. */
    public boolean oneTimePasswordExpired(Instant now) {
        return passwordChangeRequired && oneTimePasswordExpiresAt != null && !now.isBefore(oneTimePasswordExpiresAt);
    }

    /** Made by a federated login: no password of its own yet. */
    void withoutPassword() {
        this.passwordSet = false;
    }

    /** A new e-mail address, confirmed by a link sent to it (account/EmailChanges). */
    void changeEmail(String newCorreo, Instant now) {
        this.correo = normalizeEmail(newCorreo);
        // the link reached the new address
        this.emailVerified = true;
        this.updatedAt = now;
    }

    /** A new name, already cleaned by the rule of every name here (common/Names). */
    void rename(String newPrimerNombre, Instant now) {
        this.primerNombre = newPrimerNombre;
        this.updatedAt = now;
    }

    public void changeRole(Role newRole, Instant now) {
        this.rol = newRole;
        this.updatedAt = now;
    }

    public void disable(Instant now) {
        this.enabled = false;
        this.updatedAt = now;
    }

    public void enable(Instant now) {
        this.enabled = true;
        this.updatedAt = now;
    }

}
