package com.example.identity.token;

import java.io.Serial;
import java.io.Serializable;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import com.example.identity.account.Role;

/** A valid token and the profile of its owner: what the bearer filter and {@code /api/userinfo.php} need. */
public record TokenOwner(long tokenId, long userId, String primerNombre, String correo, Role rol, TokenKind kind,
        @Nullable String clientId, Set<String> scopes, @Nullable String authorizationId) implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;
}
