package com.example.identity.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.Endpoints;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.apitoken.TokenOwner;

/**
 * {@code GET /api/userinfo.php} (specification §4.1): the profile of the owner of the bearer token, with
 * exactly the keys {@code id}, {@code primer_nombre}, {@code correo}, {@code rol}. A session is not enough:
 * without a bearer token the answer is 401 {@code Falta token Bearer}. Any valid token will do, whatever
 * its scope. The GETs are answered by {@link UserInfoEndpointFilter} at the end of the endpoint's security
 * chain; this controller answers the other methods as Spring MVC does (HEAD, and 405 for the rest).
 */
@RestController
class UserInfoController {

    static final String MISSING = "Falta token Bearer";

    @GetMapping(Endpoints.API_USERINFO)
    ResponseEntity<UserInfo> userinfo(Authentication caller) {
        if (!(caller instanceof BearerTokenAuthentication bearer)) {
            throw ApiProblem.unauthorized(MISSING, "Bearer");
        }
        if (speaksForNoUser(bearer)) {
            throw ApiProblem.forbidden(ApiSecurityConfig.DENIED);
        }
        return ApiJson.ok(profile(bearer.owner()));
    }

    /**
     * A {@code servidor} application's own token (decisions §21): valid, but there is no player behind it, so
     * the profile is not its owner's: 403 {@code Permiso denegado}.
     */
    static boolean speaksForNoUser(BearerTokenAuthentication bearer) {
        return bearer.owner().kind() == TokenKind.SERVER;
    }

    /** The answer's body, here and in {@link UserInfoEndpointFilter} (which answers the GETs). */
    static UserInfo profile(TokenOwner owner) {
        return new UserInfo(true, new User(owner.userId(), owner.primerNombre(), owner.correo(), owner.rol().value()));
    }

    record UserInfo(boolean ok, User user) {
    }

    @JsonPropertyOrder({ "id", "primer_nombre", "correo", "rol" })
    record User(long id, @JsonProperty("primer_nombre") String primerNombre, String correo, String rol) {
    }
}
