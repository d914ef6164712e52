package com.example.identity.oauth.authorize;

import java.util.function.Consumer;

import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationContext;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationException;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationValidator;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;

import com.example.identity.client.DatabaseRegisteredClientRepository;

/**
 * The checks of an authorization request once its client is known (decisions §2), run by Spring
 * Authorization Server before the user is asked to log in: the {@code redirect_uri} is required and
 * must equal the registered one byte for byte (no loopback port leniency); a revoked client is refused;
 * then the stock scope check ({@code openid email profile} only). The first two never redirect.
 */
public class AuthorizeRequestChecks implements Consumer<OAuth2AuthorizationCodeRequestAuthenticationContext> {

    static final String CLIENT_REVOKED = "client_revoked";

    @Override
    public void accept(OAuth2AuthorizationCodeRequestAuthenticationContext context) {
        OAuth2AuthorizationCodeRequestAuthenticationToken request = context.getAuthentication();
        RegisteredClient client = context.getRegisteredClient();
        String redirectUri = request.getRedirectUri();
        if (redirectUri == null || !DatabaseRegisteredClientRepository.hasRedirectUri(client, redirectUri)) {
            throw withoutRedirect(request, OAuth2ErrorCodes.INVALID_REQUEST, OAuth2ParameterNames.REDIRECT_URI);
        }
        if (DatabaseRegisteredClientRepository.isRevoked(client)) {
            throw withoutRedirect(request, CLIENT_REVOKED, OAuth2ParameterNames.CLIENT_ID);
        }
        OAuth2AuthorizationCodeRequestAuthenticationValidator.DEFAULT_SCOPE_VALIDATOR.accept(context);
        sizeChecks(request);
    }

    /** Longest {@code state} carried back to the client. */
    static final int MAX_STATE = 1024;
    /** Longest {@code nonce} stored with the code and put in the id_token. */
    static final int MAX_NONCE = 512;
    /**
     * RFC 7636 §4.1 and §4.2: a code verifier, and an S256 code challenge, are 43 to 128 characters of
     * the unreserved set.
     */
    public static final java.util.regex.Pattern CODE_CHALLENGE = java.util.regex.Pattern.compile("[A-Za-z0-9._~-]{43,128}");

    /** Parameters this server keeps or echoes are bounded; a violation goes back to the client as invalid_request. */
    private static void sizeChecks(OAuth2AuthorizationCodeRequestAuthenticationToken request) {
        var extra = request.getAdditionalParameters();
        Object nonce = extra.get("nonce");
        Object challenge = extra.get("code_challenge");
        boolean bad = (request.getState() != null && request.getState().length() > MAX_STATE)
                || (nonce instanceof String n && n.length() > MAX_NONCE)
                || (challenge instanceof String c && !CODE_CHALLENGE.matcher(c).matches());
        if (bad) {
            throw new OAuth2AuthorizationCodeRequestAuthenticationException(
                    new OAuth2Error(OAuth2ErrorCodes.INVALID_REQUEST, "OAuth 2.0 Parameter too long or malformed", null),
                    request);
        }
    }

    /** An error whose request carries no redirect URI, so nothing is ever sent to an unverified address. */
    private static OAuth2AuthorizationCodeRequestAuthenticationException withoutRedirect(
            OAuth2AuthorizationCodeRequestAuthenticationToken request, String code, String parameter) {
        var noRedirect = new OAuth2AuthorizationCodeRequestAuthenticationToken(request.getAuthorizationUri(),
                request.getClientId(), (org.springframework.security.core.Authentication) request.getPrincipal(), null,
                request.getState(), request.getScopes(), request.getAdditionalParameters());
        return new OAuth2AuthorizationCodeRequestAuthenticationException(
                new OAuth2Error(code, "OAuth 2.0 Parameter: " + parameter, null), noRedirect);
    }
}
