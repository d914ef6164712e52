package com.example.identity.oauth.token;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.abuse.AuthenticatedClientFilter;
import com.example.identity.abuse.RateLimitFilter;
import com.example.identity.abuse.RateLimits;
import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.web.ChainCustomizer;

/**
 * Client authentication, shared by the endpoints where a client authenticates (token, revocation,
 * introspection, device authorization): the address budget of failures before anything else
 * ({@link RateLimitFilter}, before {@link TokenEndpointMethodCheck}, so {@link TokenEndpointCustomizer} is
 * applied first), the converter ({@link TokenRequestConverter}: grant type, parameters, one authentication
 * method; plugged in as {@code convert}, not an {@code AuthenticationConverter} bean), the client checks
 * ({@link ClientCredentialsChecks}: id, secret), the refusals ({@link TokenResponses}) and, after client
 * authentication, that client's rate ({@link AuthenticatedClientFilter}, first of the filters before the
 * {@code AuthorizationFilter}).
 */
@Component
public class ClientAuthenticationCustomizer implements ChainCustomizer {

    private final TokenRequestConverter tokenRequests;
    private final BearerClientAuthentication bearerClients;
    private final ClientCredentialsChecks clientChecks;
    private final TokenResponses responses;
    private final RateLimits limits;

    ClientAuthenticationCustomizer(TokenRequestConverter tokenRequests, ClientCredentialsChecks clientChecks,
            TokenResponses responses, RateLimits limits, ApiTokenValidator tokens, RegisteredClientRepository clients) {
        this.tokenRequests = tokenRequests;
        this.bearerClients = new BearerClientAuthentication(tokens, clients);
        this.clientChecks = clientChecks;
        this.responses = responses;
        this.limits = limits;
    }

    @Override
    public void customize(HttpSecurity http) {
        http
            .oauth2AuthorizationServer(server -> server
                .clientAuthentication(client -> client
                    .authenticationConverters(converters -> {
                        converters.clear();
                        converters.add(bearerClients::convert);
                        converters.add(tokenRequests::convert);
                    })
                    .authenticationProviders(providers -> {
                        providers.clear();
                        providers.add(bearerClients);
                        providers.add(clientChecks);
                    })
                    .errorResponseHandler(responses)))
            .addFilterBefore(new RateLimitFilter(limits, Endpoints.CLIENT_ENDPOINTS), TokenEndpointMethodCheck.class)
            // after client authentication (AbstractPreAuthenticatedProcessingFilter + 1), before the token
            // endpoint (AuthorizationFilter + 1)
            .addFilterBefore(new AuthenticatedClientFilter(limits), AuthorizationFilter.class);
    }
}
