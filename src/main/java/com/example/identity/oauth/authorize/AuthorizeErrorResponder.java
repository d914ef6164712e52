package com.example.identity.oauth.authorize;

import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.web.util.UriComponentsBuilder;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.WebContext;
import org.thymeleaf.web.servlet.JakartaServletWebApplication;

import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.web.Languages;

/**
 * How {@code /oauth/authorize.php} refuses a request (decisions §2). The decision rests on the request's
 * own parameters, whatever step failed: an unknown or repeated {@code client_id}, a {@code redirect_uri}
 * other than the registered one, or a revoked client get an HTML page in Spanish with status 400 and
 * never a redirect; any other problem of a request whose client and redirect URI are verified is sent
 * back to that redirect URI as {@code error} (RFC 6749 §4.1.2.1) with the {@code state} as sent, by 302.
 */
public class AuthorizeErrorResponder implements AuthenticationFailureHandler {

    static final String VIEW = "oauth/error";

    private final RegisteredClientRepository clients;
    private final TemplateEngine templates;

    public AuthorizeErrorResponder(RegisteredClientRepository clients, TemplateEngine templates) {
        this.clients = clients;
        this.templates = templates;
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException exception) throws IOException {
        String[] clientIds = request.getParameterValues(OAuth2ParameterNames.CLIENT_ID);
        RegisteredClient client = clientIds != null && clientIds.length == 1 ? clients.findByClientId(clientIds[0]) : null;
        if (client == null) {
            page(request, response, "client_id inválido");
            return;
        }
        String[] redirectUris = request.getParameterValues(OAuth2ParameterNames.REDIRECT_URI);
        if (redirectUris == null || redirectUris.length != 1 || !DatabaseRegisteredClientRepository.hasRedirectUri(client, redirectUris[0])) {
            page(request, response, "redirect_uri no coincide con el registrado");
            return;
        }
        if (DatabaseRegisteredClientRepository.isRevoked(client)) {
            page(request, response, "client_revoked");
            return;
        }
        var target = UriComponentsBuilder.fromUriString(redirectUris[0])
                .queryParam(OAuth2ParameterNames.ERROR, errorCode(exception));
        Map<String, String> values = new HashMap<>();
        if (exception instanceof AuthorizeError.Exception added) {
            // only the errors added for OpenID Connect carry a description; those of decisions §2 are unchanged
            target.queryParam(OAuth2ParameterNames.ERROR_DESCRIPTION, "{description}");
            values.put("description", added.description());
        }
        String[] states = request.getParameterValues(OAuth2ParameterNames.STATE);
        if (states != null && states.length == 1) {
            target.queryParam(OAuth2ParameterNames.STATE, "{state}");
            values.put("state", states[0]);
        }
        response.sendRedirect(values.isEmpty() ? target.encode().build().toUriString()
                : target.encode().buildAndExpand(values).toUriString());
    }

    /** The RFC 6749 §4.1.2.1 code; only codes of that list (and OIDC's) are passed on. */
    private static String errorCode(AuthenticationException exception) {
        String code = exception instanceof OAuth2AuthenticationException oauth ? oauth.getError().getErrorCode()
                : OAuth2ErrorCodes.SERVER_ERROR;
        return switch (code) {
            case OAuth2ErrorCodes.INVALID_REQUEST, OAuth2ErrorCodes.UNSUPPORTED_RESPONSE_TYPE,
                    OAuth2ErrorCodes.INVALID_SCOPE, OAuth2ErrorCodes.ACCESS_DENIED,
                    OAuth2ErrorCodes.UNAUTHORIZED_CLIENT, OAuth2ErrorCodes.SERVER_ERROR,
                    OAuth2ErrorCodes.TEMPORARILY_UNAVAILABLE, "login_required", "consent_required",
                    "interaction_required", "request_not_supported", "request_uri_not_supported" -> code;
            default -> OAuth2ErrorCodes.INVALID_REQUEST;
        };
    }

    /** The Spanish error page (decisions §2), status 400, never a redirect. */
    void page(HttpServletRequest request, HttpServletResponse response, String message) throws IOException {
        var exchange = JakartaServletWebApplication.buildApplication(request.getServletContext())
                .buildExchange(request, response);
        // the page in the person's language (decisions §22); the error code it quotes is the protocol's
        Locale language = Languages.current();
        var context = new WebContext(exchange, language);
        context.setVariable("message", message);
        context.setVariable("languageSwitch", Languages.switchLink(request, language));
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        response.setContentType("text/html;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        templates.process(VIEW, context, response.getWriter());
    }
}
