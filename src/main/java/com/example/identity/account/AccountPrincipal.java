package com.example.identity.account;

import java.io.Serial;
import java.io.Serializable;
import java.util.Collection;
import java.util.List;

import org.springframework.security.core.CredentialsContainer;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.userdetails.UserDetails;

/**
 * The logged-in user as Spring Security sees it: kept in the HTTP session, so it holds only the few
 * fields the pages and endpoints need, never the password hash after authentication.
 */
public final class AccountPrincipal implements UserDetails, CredentialsContainer, Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    private final long id;
    private final String primerNombre;
    private final String correo;
    private final Role rol;
    private final boolean enabled;
    private final boolean passwordChangeRequired;
    private final boolean credentialsNonExpired;
    /** The address was proved (decisions §18): the {@code email_verified} claim. */
    private final boolean emailVerified;
    private String passwordHash;

    public AccountPrincipal(long id, String primerNombre, String correo, Role rol, boolean enabled,
            boolean passwordChangeRequired, String passwordHash) {
        this(id, primerNombre, correo, rol, new States(enabled, passwordChangeRequired, true, false), passwordHash);
    }

    /** As read with the account's row, {@code email_verified} included (the id_token's claims). */
    public AccountPrincipal(long id, String primerNombre, String correo, Role rol, boolean enabled,
            boolean passwordChangeRequired, boolean emailVerified, String passwordHash) {
        this(id, primerNombre, correo, rol, new States(enabled, passwordChangeRequired, true, emailVerified), passwordHash);
    }

    /** The account's four yes-or-no states, read together from its row. */
    private record States(boolean enabled, boolean passwordChangeRequired, boolean credentialsNonExpired,
            boolean emailVerified) {
    }

    private AccountPrincipal(long id, String primerNombre, String correo, Role rol, States states, String passwordHash) {
        this.credentialsNonExpired = states.credentialsNonExpired();
        this.emailVerified = states.emailVerified();
        this.id = id;
        this.primerNombre = primerNombre;
        this.correo = correo;
        this.rol = rol;
        this.enabled = states.enabled();
        this.passwordChangeRequired = states.passwordChangeRequired();
        this.passwordHash = passwordHash;
    }

    public static AccountPrincipal of(UserAccount user) {
        return new AccountPrincipal(user.getId(), user.getPrimerNombre(), user.getCorreo(), user.getRol(),
                new States(user.isEnabled(), user.isPasswordChangeRequired(), true, user.isEmailVerified()),
                user.getPasswordHash());
    }

    /** As loaded for a login at {@code now}: an expired one-time password counts as expired credentials. */
    static AccountPrincipal forLogin(UserAccount user, java.time.Instant now) {
        return new AccountPrincipal(user.getId(), user.getPrimerNombre(), user.getCorreo(), user.getRol(),
                new States(user.isEnabled(), user.isPasswordChangeRequired(), !user.oneTimePasswordExpired(now),
                        user.isEmailVerified()), user.getPasswordHash());
    }

    /** Logged in with a one-time password: nothing but changing it is allowed until then. */
    public boolean passwordChangeRequired() {
        return passwordChangeRequired;
    }

    public long id() {
        return id;
    }

    public String primerNombre() {
        return primerNombre;
    }

    public String correo() {
        return correo;
    }

    public Role rol() {
        return rol;
    }

    /** Whether the person proved the address (the {@code email_verified} claim, decisions §18). */
    public boolean emailVerified() {
        return emailVerified;
    }

    /** The OpenID Connect subject of this user: {@code user:<id>} (specification §2.6). */
    public String subject() {
        return "user:" + id;
    }

    @Override
    public Collection<? extends GrantedAuthority> getAuthorities() {
        return List.of(rol.authority());
    }

    @Override
    public String getPassword() {
        return passwordHash;
    }

    /**
     * The login name is the e-mail address; a guest (decisions §24), who has none and never logs in on a page, is
     * named by its subject ({@code user:<id>}), which no address can be: Spring Authorization Server names the
     * authorizations of its tokens by it.
     */
    @Override
    public String getUsername() {
        return correo != null ? correo : subject();
    }

    @Override
    public boolean isEnabled() {
        return enabled;
    }

    /** False for a one-time password past its expiry: the login fails (checked only after the hash). */
    @Override
    public boolean isCredentialsNonExpired() {
        return credentialsNonExpired;
    }

    @Override
    public void eraseCredentials() {
        this.passwordHash = null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AccountPrincipal other && other.id == id;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id);
    }

    @Override
    public String toString() {
        return "AccountPrincipal[id=" + id + ", rol=" + rol.value() + "]";
    }
}
