package com.example.identity.oauth.token;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientCredentialsAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientCredentialsAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;

import com.example.identity.oauth.error.StandardError;

/**
 * The client credentials grant of {@code servidor} applications (RFC 6749 §4.4, decisions §21): Spring
 * Authorization Server's own provider ({@link OAuth2ClientCredentialsAuthenticationProvider}: the client must
 * be registered with the grant, which only servers are; the scopes asked for must be the client's, and a server
 * has none; the access token comes from the token generator, {@code ReferenceAccessTokenGenerator}), with what
 * every grant of this endpoint does around it: a revoked application is {@code client_revoked}, as for the
 * other grants, and the grant's own refusals are in the RFC's shape, like the refresh grant's (the legacy
 * table of errors is for the code exchange). Its authorization is not kept ({@code store/DatabaseAuthorizationService#save}).
 */
final class ClientCredentialsGrant implements AuthenticationProvider {

    private final OAuth2ClientCredentialsAuthenticationProvider grant;

    ClientCredentialsGrant(OAuth2AuthorizationService authorizations, OAuth2TokenGenerator<OAuth2Token> tokenGenerator) {
        this.grant = new OAuth2ClientCredentialsAuthenticationProvider(authorizations, tokenGenerator);
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        if (authentication.getPrincipal() instanceof OAuth2ClientAuthenticationToken client
                && client.getRegisteredClient() != null) {
            ClientCredentialsChecks.revokedCheck(client.getRegisteredClient());
        }
        try {
            return grant.authenticate(authentication);
        }
        catch (OAuth2AuthenticationException e) {
            throw switch (e.getError().getErrorCode()) {
                case OAuth2ErrorCodes.INVALID_SCOPE -> StandardError.invalidScope(
                        "Una aplicacion de tipo servidor no pide alcances");
                case OAuth2ErrorCodes.UNAUTHORIZED_CLIENT -> StandardError.unauthorizedClient(
                        "Solo las aplicaciones de tipo servidor usan client_credentials");
                default -> e;
            };
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2ClientCredentialsAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
