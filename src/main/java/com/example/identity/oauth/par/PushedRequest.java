package com.example.identity.oauth.par;

import java.io.Serial;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2PushedAuthorizationRequestAuthenticationToken;
import org.springframework.util.MultiValueMap;

/**
 * A pushed authorization request as {@link PushedRequestConverter} read it: Spring Authorization Server's request
 * (which its validators of authorization requests take, {@code AuthorizeRequestChecks} among them), and the request's
 * parameters exactly as the client sent them (order, spelling and all, without its credentials), which are what is
 * stored and later replayed at the authorization endpoint.
 */
final class PushedRequest extends OAuth2PushedAuthorizationRequestAuthenticationToken {

    @Serial
    private static final long serialVersionUID = 1L;

    private final transient MultiValueMap<String, String> parameters;

    PushedRequest(String authorizationUri, String clientId, Authentication client, @Nullable String redirectUri,
            @Nullable String state, Set<String> scopes, Map<String, Object> additionalParameters,
            MultiValueMap<String, String> parameters) {
        super(authorizationUri, clientId, client, redirectUri, state, scopes, additionalParameters);
        this.parameters = parameters;
    }

    /** The request's parameters as sent, {@code client_id} included, the client's credentials not. */
    MultiValueMap<String, String> parameters() {
        return parameters;
    }
}
