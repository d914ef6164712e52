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
 * The token endpoint ({@code /oauth/token.php}), every grant: the method check ({@link TokenEndpointMethodCheck},
 * before the CSRF filter), the refresh, device code and ticket requests beside Spring Authorization Server's
 * code request, the five grants' providers ({@link AuthorizationCodeExchange}: redirect URI, revoked, code, used,
 * expired, key, PKCE; {@link RefreshTokenExchange}; {@link DeviceCodeExchange}; Spring Authorization Server's
 * own client credentials provider for {@code servidor} applications; {@link TicketExchange}, the tickets for game
 * servers; each checks the request's DPoP proof, {@link TokenRequestProofs}, decisions §28) and the answers
 * ({@link TokenResponses}). Applied first: {@link ClientAuthenticationCustomizer} places its filter before the
 * method check.
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
