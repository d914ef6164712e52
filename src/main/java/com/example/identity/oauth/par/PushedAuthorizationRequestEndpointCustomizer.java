package com.example.identity.oauth.par;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.oauth.authorize.AuthorizeRequestChecks;
import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.oauth.store.PushedRequests;
import com.example.identity.web.ChainCustomizer;

/**
 * The pushed authorization request endpoint ({@code /oauth/par.php}, RFC 9126, decisions §28), Spring Authorization
 * Server's endpoint filter. A request's steps, in order:
 * <ol>
 * <li>the method, POST only ({@code oauth/StandardMethodCheck}, first of the chain: 405);</li>
 * <li>the address's budget of failures ({@code abuse/RateLimitFilter}, placed by {@code ClientAuthenticationCustomizer});</li>
 * <li>the client: HTTP Basic, {@code client_secret_post}, or a public client's {@code client_id} alone
 * ({@code ClientAuthenticationCustomizer.endpointsConverters}), then checked ({@code ClientCredentialsChecks});</li>
 * <li>that client's rate ({@code abuse/AuthenticatedClientFilter});</li>
 * <li>the authorization request's parameters ({@link PushedRequestConverter});</li>
 * <li>their checks, then the request stored for 60 seconds ({@link PushedRequestChecks}, {@link PushedRequests});</li>
 * <li>the 201 with its {@code request_uri} ({@link PushedRequestResponses}), or the refusal in the RFCs' shape
 * ({@link TokenResponses}).</li>
 * </ol>
 * The stored request is taken at the authorization endpoint by {@code oauth/authorize/PushedRequestFilter}.
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
