package com.example.identity.oauth.error;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AccessTokenAuthenticationToken;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.Endpoints;
import com.example.identity.common.JsonContent;

/**
 * What {@code /oauth/token.php} writes: the token response of specification §2.5 (exactly
 * {@code access_token}, {@code token_type}, {@code expires_in} and, with {@code openid}, {@code id_token}; a
 * ticket's, decisions §25: {@code access_token}, {@code issued_token_type}, {@code token_type} {@code N_A},
 * {@code expires_in}),
 * and the {@code {"error": ...}} bodies of {@link TokenError}. Both with {@code Cache-Control: no-store}.
 */
public class TokenResponses implements AuthenticationSuccessHandler, AuthenticationFailureHandler {


    private final JsonMapper json;

    public TokenResponses(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
            Authentication authentication) throws IOException {
        var result = (OAuth2AccessTokenAuthenticationToken) authentication;
        OAuth2AccessToken accessToken = result.getAccessToken();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("access_token", accessToken.getTokenValue());
        Object issuedTokenType = result.getAdditionalParameters().get(OAuth2ParameterNames.ISSUED_TOKEN_TYPE);
        if (issuedTokenType != null) {
            // a token exchange (RFC 8693 §2.2.1) names what it issued; a ticket for a game server is no access
            // token, so its token_type is N_A (decisions §25)
            body.put("issued_token_type", issuedTokenType);
            body.put("token_type", "N_A");
        }
        else {
            // DPoP for a token bound to the request's proof key (RFC 9449 §5, decisions §28), else Bearer
            body.put("token_type", accessToken.getTokenType().getValue());
        }
        body.put("expires_in", accessToken.getExpiresAt().getEpochSecond() - accessToken.getIssuedAt().getEpochSecond());
        if (result.getRefreshToken() != null) {
            body.put("refresh_token", result.getRefreshToken().getTokenValue());
        }
        Object idToken = result.getAdditionalParameters().get(OidcParameterNames.ID_TOKEN);
        if (idToken != null) {
            body.put("id_token", idToken);
        }
        write(response, HttpStatus.OK, body);
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException exception) throws IOException {
        writeError(request, response, exception);
    }

    public void writeError(HttpServletRequest request, HttpServletResponse response, AuthenticationException exception)
            throws IOException {
        StandardError standard = exception instanceof StandardError s ? s
                : isStandardEndpoint(request) ? standard(exception) : null;
        if (standard != null) {
            writeStandardError(request, response, standard);
            return;
        }
        TokenError error = classify(exception);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error.message());
        if (error == TokenError.INTERNAL_ERROR) {
            TokenErrorException internal = exception instanceof TokenErrorException t && t.detail() != null ? t
                    : TokenError.internal(exception);
            body.put("detail", internal.detail());
        }
        if (error == TokenError.METHOD_NOT_ALLOWED) {
            response.setHeader(HttpHeaders.ALLOW, "POST");
        }
        if (error.status() == HttpStatus.UNAUTHORIZED && sentBasicCredentials(request)) {
            // RFC 6749 §5.2: a 401 answers the authentication scheme the client used.
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"oauth\"");
        }
        write(response, error.status(), body);
    }

    /**
     * {@code /oauth/revoke.php}, {@code /oauth/introspect.php}, {@code /oauth/device.php}, {@code /oauth/par.php},
     * {@code /oauth/invitado.php}: every answer in the RFCs' shape.
     */
    private static boolean isStandardEndpoint(HttpServletRequest request) {
        String path = request.getRequestURI();
        return Endpoints.REVOKE.equals(path) || Endpoints.INTROSPECT.equals(path)
                || Endpoints.DEVICE.equals(path) || Endpoints.PAR.equals(path) || Endpoints.GUEST.equals(path);
    }

    /** A client check of the legacy table, at an endpoint that speaks the RFCs (decisions §12). */
    private static StandardError standard(AuthenticationException exception) {
        TokenError error = classify(exception);
        return switch (error) {
            case INVALID_CLIENT_ID, WRONG_CLIENT_SECRET -> StandardError.invalidClient("Autenticacion del cliente fallida");
            case CLIENT_REVOKED -> StandardError.invalidClient("La aplicacion esta revocada");
            case INTERNAL_ERROR, OIDC_KEY_MISSING -> StandardError.serverError(
                    (exception instanceof TokenErrorException t && t.detail() != null ? t : TokenError.internal(exception))
                            .detail());
            default -> StandardError.invalidRequest(error.message());
        };
    }

    /** RFC 6749 §5.2: {@code {"error": ..., "error_description": ...}}; a 401 answers the scheme the client used. */
    private void writeStandardError(HttpServletRequest request, HttpServletResponse response, StandardError error)
            throws IOException {
        if (error.status() == HttpStatus.UNAUTHORIZED && sentBasicCredentials(request)) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"oauth\"");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error.code());
        body.put("error_description", error.description());
        write(response, error.status(), body);
    }

    private static TokenError classify(AuthenticationException exception) {
        if (exception instanceof TokenErrorException t) {
            return t.tokenError();
        }
        if (exception instanceof OAuth2AuthenticationException oauth) {
            return switch (oauth.getError().getErrorCode()) {
                case OAuth2ErrorCodes.INVALID_CLIENT -> TokenError.INVALID_CLIENT_ID;
                case OAuth2ErrorCodes.INVALID_GRANT -> TokenError.INVALID_CODE;
                case OAuth2ErrorCodes.UNSUPPORTED_GRANT_TYPE -> TokenError.INVALID_GRANT_TYPE;
                case OAuth2ErrorCodes.SERVER_ERROR -> TokenError.INTERNAL_ERROR;
                default -> TokenError.MISSING_PARAMETERS;
            };
        }
        return TokenError.INVALID_CLIENT_ID;
    }

    private static boolean sentBasicCredentials(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        return authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6);
    }

    public void write(HttpServletResponse response, HttpStatus status, Map<String, Object> body) throws IOException {
        response.setStatus(status.value());
        response.setContentType(JsonContent.TYPE);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setHeader(HttpHeaders.PRAGMA, "no-cache");
        response.getOutputStream().write(json.writeValueAsBytes(body));
    }
}
