package com.example.identity.oauth.par;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.oauth.authorize.AuthorizeRequestChecks;
import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.oauth.store.PushedRequests;
import com.example.identity.web.ChainCustomizer;

/**
 * The pushed authorization request endpoint ({@code /oauth/par.php}, RFC 9126, decisions §28): Spring Authorization
 * Server's endpoint filter, with the client authenticated as at the token endpoint
 * ({@code ClientAuthenticationCustomizer}: HTTP Basic, {@code client_secret_post}, or a public client's
 * {@code client_id}), this service's request converter ({@link PushedRequestConverter}), provider
 * ({@link PushedRequestChecks}, which stores the request in the database, {@link PushedRequests}), answer
 * ({@link PushedRequestResponses}) and refusals ({@link TokenResponses}, the RFCs' shape). The stored request is taken
 * at the authorization endpoint by {@code oauth/authorize/PushedRequestFilter}.
 */
@Component
public class PushedAuthorizationRequestEndpointCustomizer implements ChainCustomizer {

    private final AuthorizeRequestChecks authorizeChecks;
    private final PushedRequests pushed;
    private final TokenResponses responses;
    private final IdentityProperties properties;

    PushedAuthorizationRequestEndpointCustomizer(AuthorizeRequestChecks authorizeChecks, PushedRequests pushed,
            TokenResponses responses, IdentityProperties properties) {
        this.authorizeChecks = authorizeChecks;
        this.pushed = pushed;
        this.responses = responses;
        this.properties = properties;
    }

    @Override
    public void customize(HttpSecurity http) {
        http.oauth2AuthorizationServer(server -> server
            .pushedAuthorizationRequestEndpoint(par -> par
                .pushedAuthorizationRequestConverters(converters -> {
                    converters.clear();
                    converters.add(new PushedRequestConverter(properties.issuerUrl()));
                })
                .authenticationProviders(providers -> {
                    providers.clear();
                    providers.add(new PushedRequestChecks(authorizeChecks, pushed));
                })
                .pushedAuthorizationResponseHandler(new PushedRequestResponses(responses))
                .errorResponseHandler(responses)));
    }
}
