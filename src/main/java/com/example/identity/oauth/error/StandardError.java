package com.example.identity.oauth.error;

import java.io.Serial;

import org.springframework.http.HttpStatus;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;

/**
 * An error of what decisions §12, §16 and §25 added for standard client libraries (the refresh, device code
 * and ticket grants after the client checks, {@code /oauth/revoke.php}, {@code /oauth/introspect.php},
 * {@code /oauth/device.php}): RFC 6749 §5.2's
 * {@code {"error": <standard code>, "error_description": <Spanish text>}}, written by {@link TokenResponses}.
 * The legacy errors of the code exchange stay {@link TokenError}s.
 */
public final class StandardError extends OAuth2AuthenticationException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final HttpStatus status;

    private StandardError(HttpStatus status, String code, String description) {
        super(new OAuth2Error(code, description, null), description);
        this.status = status;
    }

    public static StandardError invalidRequest(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, OAuth2ErrorCodes.INVALID_REQUEST, description);
    }

    public static StandardError invalidGrant(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, OAuth2ErrorCodes.INVALID_GRANT, description);
    }

    public static StandardError invalidScope(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, OAuth2ErrorCodes.INVALID_SCOPE, description);
    }

    public static StandardError invalidClient(String description) {
        return new StandardError(HttpStatus.UNAUTHORIZED, OAuth2ErrorCodes.INVALID_CLIENT, description);
    }

    /** RFC 8693 §2.2.2: the server will not issue a token for the {@code audience} or {@code resource} asked for. */
    public static StandardError invalidTarget(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, "invalid_target", description);
    }

    /**
     * RFC 9449 §5 (decisions §28): the request's DPoP proof is refused, or missing where the application or the
     * presented token needs one.
     */
    public static StandardError invalidDPoPProof(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, "invalid_dpop_proof", description);
    }

    /** No signing key is usable (decisions §7): a token that must be signed cannot be issued. */
    public static StandardError noSigningKey(String description) {
        return new StandardError(HttpStatus.INTERNAL_SERVER_ERROR, OAuth2ErrorCodes.SERVER_ERROR, description);
    }

    /** RFC 6749 §4.1.2.1, at the pushed authorization request endpoint (RFC 9126 §2.3): a {@code response_type} not served. */
    public static StandardError unsupportedResponseType(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, OAuth2ErrorCodes.UNSUPPORTED_RESPONSE_TYPE, description);
    }

    public static StandardError unauthorizedClient(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, OAuth2ErrorCodes.UNAUTHORIZED_CLIENT, description);
    }

    /** RFC 8628 §3.5: the user has not decided yet; poll again after the interval. */
    public static StandardError authorizationPending(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, "authorization_pending", description);
    }

    /** RFC 8628 §3.5: polled sooner than the interval, which grew by 5 seconds. */
    public static StandardError slowDown(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, "slow_down", description);
    }

    /** RFC 8628 §3.5: the user denied the device. */
    public static StandardError accessDenied(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, OAuth2ErrorCodes.ACCESS_DENIED, description);
    }

    /** RFC 8628 §3.5: the device code expired before it was approved and exchanged. */
    public static StandardError expiredToken(String description) {
        return new StandardError(HttpStatus.BAD_REQUEST, "expired_token", description);
    }

    /** Anything unexpected: a 500 whose description names only the request id (the outage filter makes it a 503). */
    static StandardError serverError(String description) {
        return new StandardError(HttpStatus.INTERNAL_SERVER_ERROR, OAuth2ErrorCodes.SERVER_ERROR, description);
    }

    HttpStatus status() {
        return status;
    }

    String code() {
        return getError().getErrorCode();
    }

    String description() {
        return getError().getDescription();
    }
}
