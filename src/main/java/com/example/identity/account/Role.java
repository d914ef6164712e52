package com.example.identity.account;

import java.util.Arrays;
import java.util.List;

import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** The {@code rol} of a user, with the exact strings of the contract. */
public enum Role {

    USER("user"),
    DEVELOPER_API("developer_api"),
    ADMIN("admin"),
    /**
     * A guest player (decisions §24): an account without an address made by {@code POST /oauth/invitado.php}, which
     * only plays through its application's tokens until it is converted into a {@link #USER}. Never given by an
     * admin, never taken away by one ({@link #ASSIGNABLE}).
     */
    INVITADO("invitado");

    /** The roles an admin may give or take ({@code /dashboard/admin.php}, {@code /api/usuarios/}): all but the guest's. */
    public static final List<Role> ASSIGNABLE = List.of(USER, DEVELOPER_API, ADMIN);

    private final String value;
    private final GrantedAuthority authority;

    Role(String value) {
        this.value = value;
        this.authority = new SimpleGrantedAuthority("ROLE_" + name());
    }

    /** The value as it is written in the database and in JSON ({@code developer_api}). */
    public String value() {
        return value;
    }

    public GrantedAuthority authority() {
        return authority;
    }

    /** {@code developer_api} and {@code admin} may use the dashboard, create tokens and register applications. */
    public boolean isDeveloper() {
        return this == DEVELOPER_API || this == ADMIN;
    }

    /** A guest player's account (decisions §24). */
    public boolean isGuest() {
        return this == INVITADO;
    }

    public static Role fromValue(String value) {
        return Arrays.stream(values())
                .filter(r -> r.value.equals(value))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown rol: " + value));
    }
}
