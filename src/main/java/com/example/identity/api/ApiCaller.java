package com.example.identity.api;

import java.util.Optional;

import org.springframework.security.core.Authentication;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.token.BearerTokenAuthentication;
import com.example.identity.token.TokenKind;

/**
 * The {@link Caller} behind a request to the management routes: the user of the browser session, or
 * the owner of a personal bearer token. A token issued to an OAuth client is no caller here (the API
 * chain has already refused it with {@code Permiso denegado}).
 */
public final class ApiCaller {

    private ApiCaller() {
    }

    public static Optional<Caller> of(Authentication authentication) {
        if (authentication == null) {
            return Optional.empty();
        }
        if (authentication.getPrincipal() instanceof AccountPrincipal user) {
            return Optional.of(Caller.of(user));
        }
        if (authentication instanceof BearerTokenAuthentication bearer && bearer.owner().kind() == TokenKind.PERSONAL) {
            return Optional.of(new Caller(bearer.owner().userId(), bearer.owner().rol() == Role.ADMIN));
        }
        return Optional.empty();
    }
}
