package com.example.identity.oauth.token;

import java.util.Collections;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;

import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.apitoken.ApiTokenValidator.TokenCheck;
import com.example.identity.apitoken.TokenKind;

/**
 * A {@code servidor} application calls {@code /oauth/introspect.php} with its own access token
 * ({@code Authorization: Bearer}, RFC 7662 §2.1 allows it), the one the client credentials grant gave it
 * (decisions §21), instead of its secret: a game's back end keeps one credential in memory, the short-lived
 * one. {@link #convert} runs first among the client authentication converters and takes only that request;
 * {@link #authenticate} checks the token (the cached check of {@code /api/userinfo.php}) and authenticates the
 * application it was issued to. Only a server's token authenticates here: a user's token names no client
 * that may introspect. What the server may then introspect is {@code revocation/TokenIntrospection}'s rule.
 */
public final class BearerClientAuthentication implements AuthenticationProvider {

    /** Not a method of RFC 7591's registry: the authentication of a client by its own access token. */
    public static final ClientAuthenticationMethod ACCESS_TOKEN = new ClientAuthenticationMethod("access_token");
    /** Stands for the client id until the token names it: the token is the credential. */
    private static final String TO_BE_FOUND = "-";

    private final ApiTokenValidator tokens;
    private final RegisteredClientRepository clients;

    public BearerClientAuthentication(ApiTokenValidator tokens, RegisteredClientRepository clients) {
        this.tokens = tokens;
        this.clients = clients;
    }

    /** A bearer token (at the introspection endpoint, where {@link ClientAuthenticationCustomizer} applies it); null without one. */
    @Nullable Authentication convert(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        if (request.getParameter(OAuth2ParameterNames.CLIENT_SECRET) != null
                || Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION)).size() > 1) {
            throw StandardError.invalidRequest("El cliente se autentica de una sola forma");
        }
        return new OAuth2ClientAuthenticationToken(TO_BE_FOUND, ACCESS_TOKEN, header.substring(7).strip(), Map.of());
    }

    @Override
    public @Nullable Authentication authenticate(Authentication authentication) {
        var request = (OAuth2ClientAuthenticationToken) authentication;
        if (!ACCESS_TOKEN.equals(request.getClientAuthenticationMethod())) {
            return null;
        }
        TokenCheck check = tokens.check(request.getCredentials() instanceof String token ? token : null);
        if (!check.valid() || check.owner().kind() != TokenKind.SERVER) {
            throw StandardError.invalidClient("Token de acceso invalido, caducado o revocado");
        }
        RegisteredClient client = clients.findByClientId(check.owner().clientId());
        if (client == null || DatabaseRegisteredClientRepository.isRevoked(client)) {
            throw StandardError.invalidClient("La aplicacion esta revocada");
        }
        return new OAuth2ClientAuthenticationToken(client, ACCESS_TOKEN, null);
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2ClientAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
