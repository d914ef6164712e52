package com.example.identity.oauth.token;

import java.util.HashMap;
import java.util.Map;

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
            return grant.authenticate(withoutProof((OAuth2ClientCredentialsAuthenticationToken) authentication));
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

    /**
     * The request without its DPoP proof: a server's own token is not bound to a key (decisions §28, D45), so the
     * proof is neither checked nor used, and the answer's {@code token_type} stays {@code Bearer} (RFC 9449 §5 lets a
     * client see that it got an unbound token). Left in, Spring's provider would check it against a replay cache of
     * this instance alone.
     */
    private static OAuth2ClientCredentialsAuthenticationToken withoutProof(OAuth2ClientCredentialsAuthenticationToken request) {
        if (!request.getAdditionalParameters().containsKey(TokenRequestProofs.PROOF)) {
            return request;
        }
        Map<String, Object> parameters = new HashMap<>(request.getAdditionalParameters());
        parameters.keySet().removeIf(name -> name.startsWith("dpop_"));
        return new OAuth2ClientCredentialsAuthenticationToken((Authentication) request.getPrincipal(),
                request.getScopes(), parameters);
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2ClientCredentialsAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
