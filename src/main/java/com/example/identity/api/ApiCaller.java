package com.example.identity.api;

import java.util.Optional;

import org.springframework.security.core.Authentication;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.sanctions.Sanctioner;

/**
 * Who is calling an {@code /api/} route: the user of the browser session, or the owner of a bearer
 * token. The one place that reads a role and a token's scope from an {@link Authentication}.
 */
final class ApiCaller {

    private ApiCaller() {
    }

    /**
     * The caller of a management route (decisions §11, §15): a session's user, or the owner of a personal
     * token of scope {@code gestion}. A {@code perfil} token or a token issued to an OAuth client is none
     * (the API chain has already refused them with {@code Permiso denegado}; this is the second lock).
     *
     * @throws ApiProblem 403 {@code Permiso denegado} when there is no such caller
     */
    static Caller require(Authentication authentication) {
        if (authentication != null && authentication.getPrincipal() instanceof AccountPrincipal user) {
            return Caller.of(user);
        }
        if (authentication instanceof BearerTokenAuthentication bearer && bearer.owner().mayManage()) {
            return new Caller(bearer.owner().userId(), bearer.owner().rol() == Role.ADMIN);
        }
        throw ApiProblem.forbidden(ApiSecurityConfig.DENIED);
    }

    /**
     * The role behind a session or a personal token. A token issued to an OAuth client acts for no role
     * here: it is good for {@code /api/userinfo.php} only.
     */
    static Optional<Role> roleOf(Authentication authentication) {
        if (authentication.getPrincipal() instanceof AccountPrincipal user) {
            return Optional.of(user.rol());
        }
        if (authentication instanceof BearerTokenAuthentication bearer && bearer.owner().kind() == TokenKind.PERSONAL) {
            return Optional.of(bearer.owner().rol());
        }
        return Optional.empty();
    }

    /**
     * Who places, lifts or lists sanctions (decisions §26): a management route's caller ({@link #require}), or a
     * {@code servidor} application's own token, which acts for its owner in the owner's applications.
     *
     * @throws ApiProblem 403 {@code Permiso denegado} when there is no such caller
     */
    static Sanctioner sanctioner(Authentication authentication) {
        if (authentication instanceof BearerTokenAuthentication bearer && bearer.owner().kind() == TokenKind.SERVER
                && bearer.owner().clientId() != null) {
            return Sanctioner.server(bearer.owner().userId(), bearer.owner().clientId());
        }
        return Sanctioner.of(require(authentication));
    }

    /** A {@code servidor} application's own access token (client credentials, decisions §21). */
    static boolean isServer(Authentication authentication) {
        return authentication instanceof BearerTokenAuthentication bearer && bearer.owner().kind() == TokenKind.SERVER;
    }

    /** An {@code admin} caller, by session or personal token. */
    static boolean isAdmin(Authentication authentication) {
        return roleOf(authentication).map(r -> r == Role.ADMIN).orElse(false);
    }

    /** A {@code developer_api} or {@code admin} caller ({@link Role#isDeveloper}). */
    static boolean isDeveloper(Authentication authentication) {
        return roleOf(authentication).map(Role::isDeveloper).orElse(false);
    }

    /**
     * Whether a caller that passed the role check may use the management routes: a session always; a
     * bearer token only when it is a personal token of scope {@code gestion}.
     */
    static boolean mayManage(Authentication authentication) {
        return !(authentication instanceof BearerTokenAuthentication bearer) || bearer.owner().mayManage();
    }
}
