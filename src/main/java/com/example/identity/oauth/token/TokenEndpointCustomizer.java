package com.example.identity.oauth.token;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.web.ChainCustomizer;

/**
 * The token endpoint ({@code /oauth/token.php}), every grant. A request's steps, in order:
 * <ol>
 * <li>the method ({@link TokenEndpointMethodCheck}, before the CSRF filter: the contract's 405);</li>
 * <li>the address's budget of failures ({@code abuse/RateLimitFilter}, placed before the method check by
 * {@link ClientAuthenticationCustomizer}, applied after this one);</li>
 * <li>the grant type, the mandatory and repeated parameters, one authentication method, then the client's
 * credentials, in the legacy order of decisions §1 ({@link TokenRequestConverter}), checked
 * ({@link ClientCredentialsChecks});</li>
 * <li>that client's rate ({@code abuse/AuthenticatedClientFilter});</li>
 * <li>one {@code DPoP} header at most ({@link TokenRequestProofs}, the first request converter), then the grant's
 * request: the code (Spring Authorization Server's), {@link RefreshTokenRequests}, {@link DeviceCodeRequests},
 * {@link TicketRequests}, client credentials (Spring Authorization Server's);</li>
 * <li>the grant's provider: {@link AuthorizationCodeExchange} (redirect URI, revoked, code, used, expired, key,
 * PKCE), {@link RefreshTokenExchange}, {@link DeviceCodeExchange}, {@link ClientCredentialsGrant} for
 * {@code servidor} applications, {@link TicketExchange} for game servers; each checks the request's DPoP proof
 * ({@link TokenRequestProofs}, decisions §28);</li>
 * <li>the answer, or the refusal from the table of {@code error/TokenError} ({@link TokenResponses}).</li>
 * </ol>
 */
@Component
public class TokenEndpointCustomizer implements ChainCustomizer {

    private final AuthorizationCodeExchange codeExchange;
    private final RefreshTokenExchange refreshExchange;
    private final DeviceCodeExchange deviceExchange;
    private final ClientCredentialsGrant clientCredentials;
    private final TicketExchange tickets;
    private final TokenResponses responses;
    private final TokenRequestProofs proofs;

    TokenEndpointCustomizer(AuthorizationCodeExchange codeExchange, RefreshTokenExchange refreshExchange,
            DeviceCodeExchange deviceExchange, TicketExchange tickets, OAuth2AuthorizationService authorizations,
            OAuth2TokenGenerator<OAuth2Token> tokenGenerator, TokenResponses responses, TokenRequestProofs proofs) {
        this.proofs = proofs;
        this.codeExchange = codeExchange;
        this.refreshExchange = refreshExchange;
        this.deviceExchange = deviceExchange;
        this.tickets = tickets;
        this.clientCredentials = new ClientCredentialsGrant(authorizations, tokenGenerator);
        this.responses = responses;
    }

    @Override
    public void customize(HttpSecurity http) {
        http
            .oauth2AuthorizationServer(server -> server
                .tokenEndpoint(token -> token
                    // first: one DPoP header at most, whatever the grant (decisions §28)
                    .accessTokenRequestConverter(proofs)
                    .accessTokenRequestConverter(new RefreshTokenRequests())
                    .accessTokenRequestConverter(new DeviceCodeRequests())
                    .accessTokenRequestConverter(new TicketRequests())
                    .authenticationProviders(providers -> {
                        providers.clear();
                        providers.add(codeExchange);
                        providers.add(refreshExchange);
                        providers.add(deviceExchange);
                        providers.add(clientCredentials);
                        providers.add(tickets);
                    })
                    .accessTokenResponseHandler(responses)
                    .errorResponseHandler(responses)))
            .addFilterBefore(new TokenEndpointMethodCheck(Endpoints.TOKEN_ENDPOINT, responses), CsrfFilter.class);
    }
}
