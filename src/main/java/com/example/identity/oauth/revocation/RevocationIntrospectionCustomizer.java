package com.example.identity.oauth.revocation;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;

import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.oauth.token.ClientAuthenticationCustomizer;
import com.example.identity.oauth.token.TokenParameterRequests;
import com.example.identity.web.ChainCustomizer;

/**
 * Revocation ({@code /oauth/revoke.php}, RFC 7009) and introspection ({@code /oauth/introspect.php}, RFC 7662).
 * Each request's steps, in order:
 * <ol>
 * <li>the method, POST only ({@code oauth/StandardMethodCheck}, first of the chain: 405);</li>
 * <li>the address's budget of failures ({@code abuse/RateLimitFilter}, placed by {@link ClientAuthenticationCustomizer});</li>
 * <li>the client: its credentials as this endpoint reads them ({@link ClientAuthenticationCustomizer#endpointsConverters}:
 * at revocation a public application's {@code client_id} alone too; at introspection confidential clients, or a
 * {@code servidor} application's own token), then checked ({@code ClientCredentialsChecks});</li>
 * <li>that client's rate ({@code abuse/AuthenticatedClientFilter});</li>
 * <li>the request's {@code token} and {@code token_type_hint} ({@link TokenParameterRequests});</li>
 * <li>the endpoint's rule: an application's own tokens revoked ({@link TokenRevocation}); what an application may
 * learn of a token ({@link TokenIntrospection});</li>
 * <li>the answer, or the refusal in the RFCs' shape ({@link TokenResponses}).</li>
 * </ol>
 */
@Component
public class RevocationIntrospectionCustomizer implements ChainCustomizer {

    private final TokenRevocation revocation;
    private final TokenIntrospection introspection;
    private final TokenResponses responses;

    RevocationIntrospectionCustomizer(TokenRevocation revocation, TokenIntrospection introspection,
            TokenResponses responses) {
        this.revocation = revocation;
        this.introspection = introspection;
        this.responses = responses;
    }

    @Override
    public void customize(HttpSecurity http) {
        http.oauth2AuthorizationServer(server -> server
            .tokenRevocationEndpoint(revoke -> revoke
                .revocationRequestConverter(TokenParameterRequests.revocation())
                .authenticationProviders(providers -> {
                    providers.clear();
                    providers.add(revocation);
                })
                .errorResponseHandler(responses))
            .tokenIntrospectionEndpoint(introspect -> introspect
                .introspectionRequestConverter(TokenParameterRequests.introspection())
                .authenticationProviders(providers -> {
                    providers.clear();
                    providers.add(introspection);
                })
                .errorResponseHandler(responses)));
    }
}
