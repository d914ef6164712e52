package com.example.identity.oauth.error;

import org.slf4j.MDC;
import org.springframework.http.HttpStatus;

import com.example.identity.web.RequestId;

/**
 * Every error of {@code /oauth/token.php}: the exact Spanish string of the specification (§7) and its
 * status (decisions §1), in the order the checks run. One place for the whole contract.
 */
public enum TokenError {

    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "Método no permitido, usa POST"),
    INVALID_GRANT_TYPE(HttpStatus.BAD_REQUEST, "grant_type inválido"),
    MISSING_PARAMETERS(HttpStatus.BAD_REQUEST, "Faltan parámetros obligatorios"),
    /** Added by this service: a parameter sent more than once (RFC 6749 §3.2). */
    REPEATED_PARAMETER(HttpStatus.BAD_REQUEST, "Parámetro repetido"),
    INVALID_CLIENT_ID(HttpStatus.UNAUTHORIZED, "client_id inválido"),
    WRONG_CLIENT_SECRET(HttpStatus.UNAUTHORIZED, "client_secret incorrecto"),
    REDIRECT_URI_MISMATCH(HttpStatus.BAD_REQUEST, "redirect_uri no coincide con el registrado"),
    CLIENT_REVOKED(HttpStatus.UNAUTHORIZED, "client_revoked"),
    INVALID_CODE(HttpStatus.BAD_REQUEST, "Código de autorización inválido"),
    CODE_ALREADY_USED(HttpStatus.BAD_REQUEST, "Código ya utilizado"),
    CODE_EXPIRED(HttpStatus.BAD_REQUEST, "Código expirado"),
    OIDC_KEY_MISSING(HttpStatus.INTERNAL_SERVER_ERROR, "oidc_key_missing"),
    /** Added by this service: PKCE (RFC 7636 §4.6); the code is not spent. */
    INVALID_CODE_VERIFIER(HttpStatus.BAD_REQUEST, "code_verifier inválido"),
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "Error interno en el servidor");

    private final HttpStatus status;
    private final String message;

    TokenError(HttpStatus status, String message) {
        this.status = status;
        this.message = message;
    }

    public HttpStatus status() {
        return status;
    }

    /** The {@code error} string of the JSON body, byte for byte. */
    public String message() {
        return message;
    }

    /** The exception that carries this error through Spring Authorization Server to the error handler. */
    public TokenErrorException exception() {
        return new TokenErrorException(this);
    }

    /**
     * {@link #INTERNAL_ERROR} for an unexpected failure: logs it with the request id and carries a
     * {@code detail} that names only that id, never SQL, a stack trace, a host name or a secret.
     */
    public static TokenErrorException internal(Throwable cause) {
        String requestId = MDC.get(RequestId.MDC_KEY);
        org.slf4j.LoggerFactory.getLogger(TokenError.class)
                .error("Internal failure at the token endpoint (request id {})", requestId, cause);
        return new TokenErrorException(INTERNAL_ERROR,
                "Fallo interno al procesar la solicitud; id de solicitud " + requestId, cause);
    }
}
