package com.example.identity.oauth.userinfo;

import java.io.Serial;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;

/**
 * A refusal of a request to a protected resource of this server (the UserInfo endpoint), in the terms of
 * RFC 6750 §3: the status, the {@code WWW-Authenticate} challenge and a JSON body with the standard
 * {@code error} code and a Spanish {@code error_description} ({@link BearerErrorResponses} writes it).
 */
final class BearerTokenError extends OAuth2AuthenticationException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final HttpStatus status;
    private final String challenge;
    private final long retryAfterSeconds;

    private BearerTokenError(HttpStatus status, String code, String description, @Nullable String challenge,
            long retryAfterSeconds) {
        super(new OAuth2Error(code, description, null), description);
        this.status = status;
        this.challenge = challenge;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** No token at all: 401 and a bare challenge (RFC 6750 §3.1: no error code in it). */
    static BearerTokenError missing() {
        return new BearerTokenError(HttpStatus.UNAUTHORIZED, OAuth2ErrorCodes.INVALID_TOKEN,
                "Falta el token de acceso", "Bearer");
    }

    /** Unknown, malformed, expired or revoked, of a disabled account or a revoked application: 401. */
    static BearerTokenError invalid() {
        return new BearerTokenError(HttpStatus.UNAUTHORIZED, OAuth2ErrorCodes.INVALID_TOKEN,
                "Token de acceso invalido, caducado o revocado", "Bearer error=\"invalid_token\"");
    }

    /**
     * A token bound to a DPoP key presented without a valid proof of it (as {@code Bearer}, in the body, without or
     * with a failing proof), or an unbound token presented as {@code DPoP} (RFC 9449 §7.1, decisions §28): 401 with a
     * {@code DPoP} challenge naming the algorithms of the proofs.
     */
    static BearerTokenError dpop(String code, String description, String algorithms) {
        return new BearerTokenError(HttpStatus.UNAUTHORIZED, code, description,
                "DPoP error=\"" + code + "\", algs=\"" + algorithms + "\"");
    }

    /** A valid token that was not issued for this resource (no {@code openid} scope): 403. */
    static BearerTokenError insufficientScope(String scope) {
        return new BearerTokenError(HttpStatus.FORBIDDEN, OAuth2ErrorCodes.INSUFFICIENT_SCOPE,
                "El token de acceso no tiene el alcance " + scope,
                "Bearer error=\"insufficient_scope\", scope=\"" + scope + "\"");
    }

    /** The token sent in more than one way, or in the query string (RFC 6750 §2): 400. */
    static BearerTokenError invalidRequest(String description) {
        return new BearerTokenError(HttpStatus.BAD_REQUEST, OAuth2ErrorCodes.INVALID_REQUEST, description,
                "Bearer error=\"invalid_request\"");
    }

    /** The caller's address or token is over its budget: 429 with {@code Retry-After}. */
    static BearerTokenError tooManyRequests(long retryAfterSeconds) {
        return new BearerTokenError(HttpStatus.TOO_MANY_REQUESTS, "temporarily_unavailable",
                "Demasiadas solicitudes, intentalo mas tarde", null, retryAfterSeconds);
    }

    /**
     * Anything unexpected (the database unreachable while the token was looked up): a 500 that names only
     * the request id, which the outage filter turns into its 503 when the database is down.
     */
    static BearerTokenError serverError(String requestId) {
        return new BearerTokenError(HttpStatus.INTERNAL_SERVER_ERROR, OAuth2ErrorCodes.SERVER_ERROR,
                "Fallo interno al procesar la solicitud; id de solicitud " + requestId, null);
    }

    private BearerTokenError(HttpStatus status, String code, String description, @Nullable String challenge) {
        this(status, code, description, challenge, 0);
    }

    HttpStatus status() {
        return status;
    }

    @Nullable String challenge() {
        return challenge;
    }

    /** Seconds for {@code Retry-After}; 0 when the refusal is not about a budget. */
    long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
