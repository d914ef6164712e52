package com.example.identity.oauth.revocation;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.stereotype.Component;

import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.oauth.token.TokenParameterRequests;
import com.example.identity.web.ChainCustomizer;

/**
 * Revocation ({@code /oauth/revoke.php}, RFC 7009: an application's own tokens, {@link TokenRevocation}) and
 * introspection ({@code /oauth/introspect.php}, RFC 7662: {@link TokenIntrospection}): their requests
 * ({@link TokenParameterRequests}) and refusals ({@link TokenResponses}). The client authenticates at the
 * endpoint ({@link ClientAuthenticationCustomizer}).
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
