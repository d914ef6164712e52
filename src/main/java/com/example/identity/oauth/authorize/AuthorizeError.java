package com.example.identity.oauth.authorize;

import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;

/**
 * The errors the authorization endpoint added for OpenID Connect's authentication request parameters
 * (decisions §12.2): a standard {@code error} code (OIDC Core §3.1.2.6 and §6, RFC 6749 §4.1.2.1) with a
 * Spanish {@code error_description}. They are sent to the redirect URI only once the client and the
 * redirect URI are verified ({@link AuthorizeErrorResponder}); the errors of decisions §2 keep their
 * shape, without a description. A description is ASCII, Spanish written without accents or other marks:
 * RFC 6749 §4.1.2.1 allows only {@code %x20-21 / %x23-5B / %x5D-7E} there (no {@code "} and no
 * {@code \} either).
 */
public enum AuthorizeError {

    LOGIN_REQUIRED("login_required", "Hace falta iniciar sesion y prompt=none no permite mostrar la pagina"),
    INTERACTION_REQUIRED("interaction_required",
            "El usuario debe cambiar su contrasena y prompt=none no permite mostrar la pagina"),
    CONSENT_REQUIRED("consent_required",
            "Hace falta el consentimiento del usuario y prompt=none no permite mostrar la pagina"),
    REQUEST_NOT_SUPPORTED("request_not_supported", "El parametro request no esta soportado"),
    REQUEST_URI_NOT_SUPPORTED("request_uri_not_supported", "El parametro request_uri no esta soportado"),
    INVALID_PROMPT("invalid_request", "prompt invalido: none no se combina con otros valores"),
    INVALID_MAX_AGE("invalid_request", "max_age debe ser un numero entero de segundos, no negativo"),
    INVALID_CLAIMS("invalid_request", "El parametro claims no es un objeto JSON valido (OpenID Connect Core 5.5)"),
    INVALID_ID_TOKEN_HINT("invalid_request", "id_token_hint no es un id_token emitido por este servidor"),
    REPEATED_PARAMETER("invalid_request", "Parametro repetido"),
    PAR_REQUIRED("invalid_request",
            "Esta aplicacion exige enviar antes la solicitud a /oauth/par.php y usar su request_uri (PAR, RFC 9126)"),
    UNMET_ACR("access_denied",
            "Ningun inicio de sesion de este servicio tiene el nivel (acr) pedido como esencial; el unico es mfa"),
    OTHER_SUBJECT("access_denied", "La sesion iniciada es de otra cuenta que la pedida en claims (sub)"),
    /** A sanction keeps the person out of this application, or of all (decisions §26). */
    SUSPENDED("access_denied", "La cuenta esta suspendida en esta aplicacion"),
    /** A child's account whose parent has not allowed it yet (decisions §27). */
    AWAITING_PARENTAL_CONSENT("access_denied", "La cuenta espera el consentimiento de su madre, padre o tutor");

    private final String code;
    private final String description;

    AuthorizeError(String code, String description) {
        this.code = code;
        this.description = description;
    }

    public String code() {
        return code;
    }

    public String description() {
        return description;
    }

    Exception exception() {
        return new Exception(this, description);
    }

    /** The failure with {@code details} after the description (ASCII of RFC 6749 §4.1.2.1's set, like it). */
    Exception exception(String details) {
        return new Exception(this, description + details);
    }

    /** The failure handed to {@link AuthorizeErrorResponder}, which adds the description. */
    static final class Exception extends OAuth2AuthenticationException {

        private final AuthorizeError error;
        private final String description;

        Exception(AuthorizeError error, String description) {
            super(new OAuth2Error(error.code, description, null));
            this.error = error;
            this.description = description;
        }

        AuthorizeError error() {
            return error;
        }

        String description() {
            return description;
        }
    }
}
