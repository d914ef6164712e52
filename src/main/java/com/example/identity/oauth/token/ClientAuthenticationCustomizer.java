package com.example.identity.oauth.token;

import java.util.List;
import java.util.Set;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.AuthenticationConverter;
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
 * applied first), the converters, one per endpoint ({@link #endpointsConverters}: the token endpoint's
 * {@link TokenRequestConverter}, plugged in as {@code convert}, not an {@code AuthenticationConverter} bean; the
 * standard endpoints' {@link StandardClientCredentials}; introspection by a server's token), the client checks
 * ({@link ClientCredentialsChecks}: id, secret), the refusals ({@link TokenResponses}) and, after client
 * authentication, that client's rate ({@link AuthenticatedClientFilter}, first of the filters before the
 * {@code AuthorizationFilter}).
 */
@Component
public class ClientAuthenticationCustomizer implements ChainCustomizer {

    private final TokenRequestConverter tokenRequests;
    private final RegisteredClientRepository clients;
    private final BearerClientAuthentication bearerClients;
    private final ClientCredentialsChecks clientChecks;
    private final TokenResponses responses;
    private final RateLimits limits;

    ClientAuthenticationCustomizer(TokenRequestConverter tokenRequests, ClientCredentialsChecks clientChecks,
            TokenResponses responses, RateLimits limits, ApiTokenValidator tokens, RegisteredClientRepository clients) {
        this.tokenRequests = tokenRequests;
        this.clients = clients;
        this.bearerClients = new BearerClientAuthentication(tokens, clients);
        this.clientChecks = clientChecks;
        this.responses = responses;
        this.limits = limits;
    }

    /**
     * Each endpoint's way for a client to authenticate, by the request's URI as sent; the first that answers
     * wins:
     * <ol>
     * <li>{@code /oauth/token.php}: {@link TokenRequestConverter}, the legacy order of decisions §1 and its
     * Spanish refusals;</li>
     * <li>{@code /oauth/introspect.php} with a {@code Bearer} header: a {@code servidor} application's own
     * access token ({@link BearerClientAuthentication});</li>
     * <li>{@code /oauth/revoke.php}, {@code /oauth/device.php}, {@code /oauth/par.php}: RFC 6749 §2.3, or a
     * public application's {@code client_id} alone ({@link StandardClientCredentials#withPublicClients});</li>
     * <li>any other ({@code /oauth/introspect.php}): RFC 6749 §2.3, confidential clients only
     * ({@link StandardClientCredentials#confidentialOnly}).</li>
     * </ol>
     */
    List<AuthenticationConverter> endpointsConverters() {
        return List.of(
                at(Set.of(Endpoints.TOKEN), tokenRequests::convert),
                at(Set.of(Endpoints.INTROSPECT), bearerClients::convert),
                at(Set.of(Endpoints.REVOKE, Endpoints.DEVICE, Endpoints.PAR), StandardClientCredentials.withPublicClients(clients)),
                StandardClientCredentials.confidentialOnly(clients));
    }

    /** {@code converter} at those paths only (the request's URI as sent); elsewhere the next converter's turn. */
    private static AuthenticationConverter at(Set<String> paths, AuthenticationConverter converter) {
        return request -> paths.contains(request.getRequestURI()) ? converter.convert(request) : null;
    }

    @Override
    public void customize(HttpSecurity http) {
        http
            .oauth2AuthorizationServer(server -> server
                .clientAuthentication(client -> client
                    .authenticationConverters(converters -> {
                        converters.clear();
                        converters.addAll(endpointsConverters());
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
