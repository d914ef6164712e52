package com.example.identity.oauth;

import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;

/**
 * The errors the authorization endpoint added for OpenID Connect's authentication request parameters
 * (decisions §12.2): a standard {@code error} code (OIDC Core §3.1.2.6 and §6, RFC 6749 §4.1.2.1) with a
 * Spanish {@code error_description}. They are sent to the redirect URI only once the client and the
 * redirect URI are verified ({@link AuthorizeErrorResponder}); the errors of decisions §2 keep their
 * shape, without a description.
 */
enum AuthorizeError {

    LOGIN_REQUIRED("login_required", "Hace falta iniciar sesión y prompt=none no permite mostrar la página"),
    INTERACTION_REQUIRED("interaction_required",
            "El usuario debe cambiar su contraseña y prompt=none no permite mostrar la página"),
    CONSENT_REQUIRED("consent_required",
            "Hace falta el consentimiento del usuario y prompt=none no permite mostrar la página"),
    REQUEST_NOT_SUPPORTED("request_not_supported", "El parámetro request no está soportado"),
    REQUEST_URI_NOT_SUPPORTED("request_uri_not_supported", "El parámetro request_uri no está soportado"),
    INVALID_PROMPT("invalid_request", "prompt inválido: none no se combina con otros valores"),
    INVALID_MAX_AGE("invalid_request", "max_age debe ser un número entero de segundos, no negativo"),
    INVALID_CLAIMS("invalid_request", "El parámetro claims no es un objeto JSON válido (OpenID Connect Core §5.5)"),
    INVALID_ID_TOKEN_HINT("invalid_request", "id_token_hint no es un id_token emitido por este servidor"),
    REPEATED_PARAMETER("invalid_request", "Parámetro repetido"),
    UNMET_ACR("access_denied",
            "Ningún inicio de sesión de este servicio tiene el nivel (acr) pedido como esencial; el único es mfa"),
    OTHER_SUBJECT("access_denied", "La sesión iniciada es de otra cuenta que la pedida en claims (sub)");

    private final String code;
    private final String description;

    AuthorizeError(String code, String description) {
        this.code = code;
        this.description = description;
    }

    String code() {
        return code;
    }

    String description() {
        return description;
    }

    Exception exception() {
        return new Exception(this);
    }

    /** The failure handed to {@link AuthorizeErrorResponder}, which adds the description. */
    static final class Exception extends OAuth2AuthenticationException {

        private final AuthorizeError error;

        Exception(AuthorizeError error) {
            super(new OAuth2Error(error.code, error.description, null));
            this.error = error;
        }

        AuthorizeError error() {
            return error;
        }
    }
}
