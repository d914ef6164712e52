package com.example.identity.oauth;

import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.DelegatingOAuth2TokenGenerator;
import org.springframework.security.oauth2.server.authorization.token.JwtGenerator;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.transaction.support.TransactionTemplate;
import org.thymeleaf.TemplateEngine;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.account.AccountService;
import com.example.identity.deviceflow.DeviceAuthorizations;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.keys.SigningKeys;
import com.example.identity.oauth.authorize.AuthorizationEndpointCustomizer;
import com.example.identity.oauth.authorize.AuthorizeErrorResponder;
import com.example.identity.oauth.authorize.AuthorizeRequestChecks;
import com.example.identity.oauth.authorize.IdTokenHints;
import com.example.identity.oauth.device.DeviceAuthorizationEndpointCustomizer;
import com.example.identity.oauth.device.DeviceAuthorizationStart;
import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.oauth.guest.GuestEndpointCustomizer;
import com.example.identity.oauth.metadata.DiscoveryDocument;
import com.example.identity.oauth.metadata.MetadataEndpointsCustomizer;
import com.example.identity.oauth.par.PushedAuthorizationRequestEndpointCustomizer;
import com.example.identity.oauth.revocation.RevocationIntrospectionCustomizer;
import com.example.identity.oauth.revocation.TokenIntrospection;
import com.example.identity.oauth.revocation.TokenRevocation;
import com.example.identity.oauth.store.DatabaseAuthorizationService;
import com.example.identity.oauth.token.AuthorizationCodeExchange;
import com.example.identity.oauth.token.ClientAuthenticationCustomizer;
import com.example.identity.oauth.token.ClientCredentialsChecks;
import com.example.identity.oauth.token.DeviceCodeExchange;
import com.example.identity.oauth.token.IdTokenClaims;
import com.example.identity.oauth.token.ReferenceAccessTokenGenerator;
import com.example.identity.oauth.token.RefreshTokenExchange;
import com.example.identity.oauth.token.RefreshTokenGenerator;
import com.example.identity.oauth.token.RefreshTokens;
import com.example.identity.oauth.token.TicketExchange;
import com.example.identity.oauth.token.TicketGenerator;
import com.example.identity.oauth.token.GrantHolders;
import com.example.identity.oauth.token.TicketSettings;
import com.example.identity.minors.Minors;
import com.example.identity.sanctions.Sanctions;
import com.example.identity.oauth.token.TokenEndpointCustomizer;
import com.example.identity.oauth.token.TokenRequestConverter;
import com.example.identity.oauth.token.TokenRequestProofs;
import com.example.identity.oauth.userinfo.UserInfoEndpointCustomizer;
import com.example.identity.signin.LoginRedirectEntryPoint;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.web.ChainCustomizer;

/**
 * The first chain: Spring Authorization Server, matching only its endpoints ({@link Endpoints#AUTHORIZATION_SERVER}:
 * authorization, token, key set, discovery, UserInfo, revocation, introspection, device authorization, pushed
 * authorization requests, guests). Every
 * difference from a stock server is one of its extension points, each in its own class, plugged in by one
 * customizer per endpoint: the token endpoint ({@link TokenEndpointCustomizer}), client authentication
 * ({@link ClientAuthenticationCustomizer}), device authorization ({@link DeviceAuthorizationEndpointCustomizer}),
 * pushed authorization requests ({@link PushedAuthorizationRequestEndpointCustomizer}), guest players
 * ({@link GuestEndpointCustomizer}, decisions §24), revocation and introspection
 * ({@link RevocationIntrospectionCustomizer}), the authorization endpoint
 * ({@link AuthorizationEndpointCustomizer}), UserInfo ({@link UserInfoEndpointCustomizer}), discovery and the key
 * set ({@link MetadataEndpointsCustomizer}). The beans below are the steps they plug in; hex access tokens
 * ({@link ReferenceAccessTokenGenerator}), id_token claims ({@link IdTokenClaims}) and the tickets for game servers
 * ({@link TicketGenerator}) are the token generator's.
 */
@Configuration(proxyBeanMethods = false)
class AuthorizationServerConfig {

    /** The endpoints' customizers, in the order the chain applies them (filters that share a position keep it). */
    static final List<Class<? extends ChainCustomizer>> ENDPOINTS = List.of(TokenEndpointCustomizer.class,
            ClientAuthenticationCustomizer.class, DeviceAuthorizationEndpointCustomizer.class,
            PushedAuthorizationRequestEndpointCustomizer.class, GuestEndpointCustomizer.class,
            RevocationIntrospectionCustomizer.class, AuthorizationEndpointCustomizer.class, UserInfoEndpointCustomizer.class,
            MetadataEndpointsCustomizer.class);

    /**
     * The chain: Spring Authorization Server with this service's steps plugged in, one customizer per endpoint,
     * applied in the order of {@link #ENDPOINTS} (the order places the filters that share a position: see each customizer). What
     * spans the endpoints stays here: the matcher, no session for the programs' endpoints, the standard
     * endpoints' methods, who may call what, no JWT resource server, the login redirect, the headers. The
     * authorization service, the token generator and the client repository are found by type among the beans.
     * The customizers are beans with a {@code customize(HttpSecurity)} of their own, never
     * {@code Customizer<HttpSecurity>} beans: Spring Security applies every such bean to every chain. Filters
     * are not beans (Spring Boot would also register a filter bean for every request of the servlet
     * container).
     */
    @Bean
    @Order(Endpoints.AUTHORIZATION_SERVER_CHAIN)
    SecurityFilterChain authorizationServerFilterChain(HttpSecurity http, List<ChainCustomizer> customizers)
            throws Exception {
        http.securityMatcher(Endpoints.AUTHORIZATION_SERVER);
        for (Class<? extends ChainCustomizer> endpoint : ENDPOINTS) {
            List<ChainCustomizer> found = customizers.stream().filter(endpoint::isInstance).toList();
            if (found.size() != 1) {
                throw new IllegalStateException(found.size() + " beans of " + endpoint.getName() + ", expected one");
            }
            found.get(0).customize(http);
        }
        http
            .authorizeHttpRequests(authorize -> authorize
                // the UserInfo endpoint checks its bearer token itself (UserInfoRequests)
                // revocation and introspection: the client authenticates at the endpoint (TokenRequestConverter)
                .requestMatchers(Endpoints.TOKEN_ENDPOINT, Endpoints.PUBLIC_JSON, Endpoints.USERINFO_ENDPOINT,
                        Endpoints.REVOKE_INTROSPECT, Endpoints.DEVICE_ENDPOINT, Endpoints.PAR_ENDPOINT)
                    .permitAll()
                .anyRequest().authenticated())
            // Spring Authorization Server turns on a JWT resource server for its UserInfo endpoint; this
            // server's access tokens are not JWTs, and the endpoint's own converter (UserInfoRequests) reads
            // and checks them, so that filter is given no token to look at.
            .oauth2ResourceServer(resourceServer -> resourceServer.bearerTokenResolver(request -> null))
            .addFilterBefore(new WithoutSession(Endpoints.SESSIONLESS), SecurityContextHolderFilter.class)
            .addFilterBefore(new StandardMethodCheck(Map.of(Endpoints.USERINFO, new LinkedHashSet<>(List.of("GET", "POST")),
                    Endpoints.REVOKE, Set.of("POST"), Endpoints.INTROSPECT, Set.of("POST"), Endpoints.DEVICE, Set.of("POST"),
                    Endpoints.PAR, Set.of("POST"), Endpoints.GUEST, Set.of("POST"))),
                    SecurityContextHolderFilter.class)
            .exceptionHandling(ex -> ex.authenticationEntryPoint(new LoginRedirectEntryPoint()))
            .requestCache(cache -> cache.disable())
            // A session that was ended (account disabled, role changed) is deleted from the database
            // (session/SessionConfig), so it is simply absent here, on every instance: no registry check.
            .headers(headers -> headers
                .contentSecurityPolicy(csp -> csp.policyDirectives(
                        "default-src 'self'; script-src 'self'; style-src 'self'; form-action 'self'; "
                        + "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"))
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.NO_REFERRER)));
        return http.build();
    }

    /** Step 1 of the token endpoint: grant type, mandatory and repeated parameters, the client's credentials. */
    @Bean
    TokenRequestConverter tokenRequestConverter(RegisteredClientRepository clients) {
        return new TokenRequestConverter(clients);
    }

    /**
     * Steps 2 and 3: the client id and its secret. Note: this and {@link #authorizationCodeExchange} are the
     * context's two {@code AuthenticationProvider} beans; with more than one, Spring Security leaves them out
     * of the global authentication manager, which keeps using the {@code UserDetailsService} for the login
     * form (a single provider bean would replace it: keep them two, or wire the login's provider itself).
     */
    @Bean
    ClientCredentialsChecks clientCredentialsChecks(RegisteredClientRepository clients) {
        return new ClientCredentialsChecks(clients);
    }

    /** The DPoP step of the grants that issue a player's tokens (decisions §28): the request's proof, checked once. */
    @Bean
    TokenRequestProofs tokenRequestProofs(DPoPProofs proofs) {
        return new TokenRequestProofs(proofs);
    }

    /** The remaining steps: redirect URI, revoked client, the DPoP proof, the code and its exchange. */
    @Bean
    AuthorizationCodeExchange authorizationCodeExchange(DatabaseAuthorizationService authorizations,
            OAuth2TokenGenerator<OAuth2Token> tokenGenerator, SigningKeys signingKeys, RefreshTokens refreshTokens,
            TransactionTemplate transactions, Clock clock, ApplicationEventPublisher events, TokenRequestProofs proofs) {
        return new AuthorizationCodeExchange(authorizations, tokenGenerator, signingKeys, refreshTokens, transactions,
                clock, events, proofs);
    }

    /** The refresh grant: rotation with reuse detection (decisions §12.4); a provider bean like the two above. */
    @Bean
    RefreshTokenExchange refreshTokenExchange(RefreshTokens refreshTokens, DatabaseAuthorizationService authorizations,
            GrantHolders holders, OAuth2TokenGenerator<OAuth2Token> tokenGenerator, SigningKeys signingKeys,
            TransactionTemplate transactions, Clock clock, TokenRequestProofs proofs) {
        return new RefreshTokenExchange(refreshTokens, authorizations, holders, tokenGenerator, signingKeys, transactions,
                clock, proofs);
    }

    /** The device code grant (RFC 8628 §3.4): polls, and the one that spends an approved run; a provider bean. */
    @Bean
    DeviceCodeExchange deviceCodeExchange(DeviceAuthorizations devices, DatabaseAuthorizationService authorizations,
            GrantHolders holders, OAuth2TokenGenerator<OAuth2Token> tokenGenerator, SigningKeys signingKeys,
            TransactionTemplate transactions, Clock clock, TokenRequestProofs proofs) {
        return new DeviceCodeExchange(devices, authorizations, holders, tokenGenerator, signingKeys, transactions, clock,
                proofs);
    }

    /**
     * Whom the refresh and device code grants issue tokens for: the enabled account no sanction keeps out, whose
     * parent has allowed it if it is a child's (decisions §27).
     */
    @Bean
    GrantHolders grantHolders(AccountService accounts, Sanctions sanctions, Minors minors) {
        return new GrantHolders(accounts, sanctions, minors);
    }

    /**
     * The ticket grant (RFC 8693 token exchange, decisions §25): a game's ticket for one of its owner's servers,
     * from the player's access token; a provider bean like the ones above.
     */
    @Bean
    TicketExchange ticketExchange(ApiTokenValidator tokens, RegisteredClientRepository clients,
            OAuth2TokenGenerator<OAuth2Token> tokenGenerator, SigningKeys signingKeys, TokenRequestProofs proofs,
            Sanctions sanctions) {
        return new TicketExchange(tokens, clients, tokenGenerator, signingKeys, proofs, sanctions);
    }

    /** The device authorization endpoint's step (RFC 8628 §3.1): a run started for a device application. */
    @Bean
    DeviceAuthorizationStart deviceAuthorizationStart(DeviceAuthorizations devices) {
        return new DeviceAuthorizationStart(devices);
    }

    /** Revocation (RFC 7009): an application's own tokens; a provider bean like the ones above. */
    @Bean
    TokenRevocation tokenRevocation(ApiTokenService tokens, RefreshTokens refreshTokens, ApplicationEventPublisher events) {
        return new TokenRevocation(tokens, refreshTokens, events);
    }

    /** Introspection (RFC 7662): access tokens (a server: its owner's applications'), its own refresh tokens. */
    @Bean
    TokenIntrospection tokenIntrospection(ApiTokenValidator tokens, RegisteredClientRepository clients,
            RefreshTokens refreshTokens, AccountService accounts, IdentityProperties properties, Clock clock) {
        return new TokenIntrospection(tokens, clients, refreshTokens, accounts, properties.issuerUrl(), clock);
    }

    /** The token endpoint's answers: the token response and every row of {@link TokenError}. */
    @Bean
    TokenResponses tokenResponses(JsonMapper json) {
        return new TokenResponses(json);
    }

    /** The authorization endpoint's checks: exact redirect URI, revoked client, scopes, PKCE. */
    @Bean
    AuthorizeRequestChecks authorizeRequestChecks() {
        return new AuthorizeRequestChecks();
    }

    /** The authorization endpoint's refusals: a Spanish page or an error redirect. */
    @Bean
    AuthorizeErrorResponder authorizeErrorResponder(RegisteredClientRepository clients, TemplateEngine templates) {
        return new AuthorizeErrorResponder(clients, templates);
    }

    /** Verifies an {@code id_token_hint}: signed with this server's keys, of this issuer. */
    @Bean
    IdTokenHints idTokenHints(JWKSource<SecurityContext> keys, IdentityProperties properties) {
        return new IdTokenHints(keys, properties.issuerUrl());
    }

    /** The discovery document: only what this server serves. */
    @Bean
    DiscoveryDocument discoveryDocument() {
        return new DiscoveryDocument();
    }

    @Bean
    AuthorizationServerSettings authorizationServerSettings(IdentityProperties properties) {
        return AuthorizationServerSettings.builder()
                .issuer(properties.issuerUrl())
                .authorizationEndpoint(Endpoints.AUTHORIZE)
                .tokenEndpoint(Endpoints.TOKEN)
                .jwkSetEndpoint(Endpoints.JWKS)
                .oidcUserInfoEndpoint(Endpoints.USERINFO)
                .tokenRevocationEndpoint(Endpoints.REVOKE)
                .tokenIntrospectionEndpoint(Endpoints.INTROSPECT)
                .deviceAuthorizationEndpoint(Endpoints.DEVICE)
                .deviceVerificationEndpoint(Endpoints.ACTIVATION)
                .pushedAuthorizationRequestEndpoint(Endpoints.PAR)
                .build();
    }

    /**
     * 64-hex access tokens stored as API tokens, refresh tokens, RS256 id_tokens with this service's claims, and
     * the tickets for game servers (RS256 too, with the same keys).
     */
    @Bean
    OAuth2TokenGenerator<OAuth2Token> tokenGenerator(JwtEncoder jwtEncoder, ApiTokenService tokens,
            RefreshTokens refreshTokens, TicketSettings tickets, Clock clock, Minors minors) {
        var idTokens = new JwtGenerator(jwtEncoder);
        idTokens.setJwtCustomizer(new IdTokenClaims(minors));
        return new DelegatingOAuth2TokenGenerator(new ReferenceAccessTokenGenerator(tokens, clock),
                new RefreshTokenGenerator(refreshTokens), idTokens, new TicketGenerator(jwtEncoder, tickets, clock));
    }
}
