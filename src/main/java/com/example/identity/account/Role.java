package com.example.identity.account;

import java.util.Arrays;

import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** The {@code rol} of a user, with the exact strings of the contract. */
public enum Role {

    USER("user"),
    DEVELOPER_API("developer_api"),
    ADMIN("admin");

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

    public static Role fromValue(String value) {
        return Arrays.stream(values())
                .filter(r -> r.value.equals(value))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown rol: " + value));
    }
}
