package com.example.identity.oauth.token;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;

import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.crypto.Secrets;
import com.example.identity.oauth.error.TokenError;

/**
 * The client authentication steps of {@code /oauth/token.php}, in the order of decisions §1:
 * {@link #clientIdCheck}, {@link #secretCheck} (SHA-256 digest, constant time: no slow hash on this hot
 * path). Plugged in as Spring Authorization Server's client authentication provider: once it returns, the
 * client has proved its secret, and what fails afterwards is that client's own business (the next steps,
 * {@link #redirectUriCheck} and {@link #revokedCheck}, run first in {@link AuthorizationCodeExchange}); the
 * rate limits learn which client authenticated from the security context
 * ({@code abuse/AuthenticatedClientFilter}).
 */
public class ClientCredentialsChecks implements AuthenticationProvider {

    private final RegisteredClientRepository clients;

    public ClientCredentialsChecks(RegisteredClientRepository clients) {
        this.clients = clients;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var request = (OAuth2ClientAuthenticationToken) authentication;
        if (BearerClientAuthentication.ACCESS_TOKEN.equals(request.getClientAuthenticationMethod())) {
            return null; // a server's own access token at introspection: BearerClientAuthentication's
        }
        RegisteredClient client = clientIdCheck(request);
        secretCheck(client, request);
        return new OAuth2ClientAuthenticationToken(client, request.getClientAuthenticationMethod(),
                request.getCredentials());
    }

    RegisteredClient clientIdCheck(OAuth2ClientAuthenticationToken request) {
        RegisteredClient client = request.getPrincipal() instanceof String clientId ? clients.findByClientId(clientId)
                : null;
        if (client == null) {
            throw TokenError.INVALID_CLIENT_ID.exception();
        }
        return client;
    }

    static void secretCheck(RegisteredClient client, OAuth2ClientAuthenticationToken request) {
        boolean publicClient = DatabaseRegisteredClientRepository.isPublic(client);
        if (ClientAuthenticationMethod.NONE.equals(request.getClientAuthenticationMethod())) {
            // a public application proves the code with PKCE (AuthorizationCodeExchange.pkceCheck) instead
            if (!publicClient) {
                throw TokenError.MISSING_PARAMETERS.exception();
            }
            return;
        }
        if (publicClient) {
            // it has no secret: whatever it sent is not one
            throw TokenError.WRONG_CLIENT_SECRET.exception();
        }
        Object secret = request.getCredentials();
        if (!(secret instanceof String presented) || !Secrets.digestMatches(client.getClientSecret(), presented)) {
            throw TokenError.WRONG_CLIENT_SECRET.exception();
        }
    }

    /** After authentication: exactly, byte for byte, the registered {@code redirect_uri}. */
    static void redirectUriCheck(RegisteredClient client, String redirectUri) {
        if (redirectUri == null || !DatabaseRegisteredClientRepository.hasRedirectUri(client, redirectUri)) {
            throw TokenError.REDIRECT_URI_MISMATCH.exception();
        }
    }

    /** After authentication: the client is not revoked. */
    public static void revokedCheck(RegisteredClient client) {
        if (DatabaseRegisteredClientRepository.isRevoked(client)) {
            throw TokenError.CLIENT_REVOKED.exception();
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2ClientAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
