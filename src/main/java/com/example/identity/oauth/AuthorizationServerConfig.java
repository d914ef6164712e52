package com.example.identity.oauth;

import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.DelegatingOAuth2TokenGenerator;
import org.springframework.security.oauth2.server.authorization.token.JwtGenerator;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.transaction.support.TransactionTemplate;
import org.thymeleaf.TemplateEngine;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.account.AccountService;
import com.example.identity.consent.Consents;
import com.example.identity.device.DeviceAuthorizations;
import com.example.identity.mfa.SecondStep;
import com.example.identity.keys.SigningKeys;
import com.example.identity.login.LoginRedirectEntryPoint;
import com.example.identity.account.PasswordChangeGate;
import com.example.identity.token.ApiTokenService;
import com.example.identity.token.ApiTokenValidator;
import com.example.identity.abuse.AuthenticatedClientFilter;
import com.example.identity.abuse.RateLimitFilter;
import com.example.identity.abuse.RateLimits;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;

import tools.jackson.databind.json.JsonMapper;

/**
 * Chain 1 of 3: Spring Authorization Server, matching only the documented endpoints
 * ({@code /oauth/authorize.php}, {@code /oauth/token.php}, {@code /oauth/jwks.json},
 * {@code /.well-known/openid-configuration}). Every difference from a stock server is one of its
 * extension points, each in its own class: the token endpoint's checks ({@link TokenRequestConverter},
 * {@link ClientCredentialsChecks}, {@link AuthorizationCodeExchange}) and answers ({@link TokenResponses});
 * the authorization endpoint's checks ({@link AuthorizeRequestChecks}), OpenID Connect's authentication
 * request parameters ({@link AuthenticationRequestFilter}) and errors ({@link AuthorizeErrorResponder}); hex access tokens ({@link ReferenceAccessTokenGenerator}); id_token
 * claims ({@link IdTokenClaims}); the discovery document ({@link DiscoveryDocument}); the UserInfo endpoint's
 * token check ({@link UserInfoRequests}), claims ({@link UserInfoClaims}) and errors ({@link BearerErrorResponses}).
 */
@Configuration(proxyBeanMethods = false)
class AuthorizationServerConfig {

    /**
     * The chain: Spring Authorization Server with this service's steps plugged in, in the order a token
     * request meets them: the address budget ({@link RateLimitFilter}), the method check, the converter
     * (grant type, parameters, credentials), the client checks (id, secret), the authenticated client's
     * rate ({@link AuthenticatedClientFilter}), the code exchange (redirect URI, revoked, code, used, expired,
     * key, PKCE), the responses. The authorization service, the token generator and the client repository
     * are found by type among the beans. Filters are not beans (Spring Boot would also register a filter
     * bean for every request of the servlet container).
     */
    @Bean
    @Order(Endpoints.AUTHORIZATION_SERVER_CHAIN)
    SecurityFilterChain authorizationServerFilterChain(HttpSecurity http, TokenRequestConverter tokenRequests,
            ClientCredentialsChecks clientChecks, AuthorizationCodeExchange codeExchange,
            RefreshTokenExchange refreshExchange, DeviceCodeExchange deviceExchange, DeviceAuthorizationStart deviceStart,
            TokenRevocation revocation, TokenIntrospection introspection, TokenResponses responses,
            IdentityProperties properties,
            AuthorizeRequestChecks authorizeChecks, AuthorizeErrorResponder authorizeErrors,
            DiscoveryDocument discovery, RateLimits limits, IdTokenHints idTokenHints, ApiTokenValidator tokens,
            JsonMapper json, RegisteredClientRepository clients, Consents consents, SecondStep secondStep, Clock clock)
            throws Exception {
        http
            .securityMatcher(Endpoints.AUTHORIZATION_SERVER)
            .oauth2AuthorizationServer(server -> server
                .clientAuthentication(client -> client
                    .authenticationConverters(converters -> {
                        converters.clear();
                        converters.add(tokenRequests::convert);
                    })
                    .authenticationProviders(providers -> {
                        providers.clear();
                        providers.add(clientChecks);
                    })
                    .errorResponseHandler(responses))
                .tokenEndpoint(token -> token
                    .accessTokenRequestConverter(new RefreshTokenRequests())
                    .accessTokenRequestConverter(new DeviceCodeRequests())
                    .authenticationProviders(providers -> {
                        providers.clear();
                        providers.add(codeExchange);
                        providers.add(refreshExchange);
                        providers.add(deviceExchange);
                    })
                    .accessTokenResponseHandler(responses)
                    .errorResponseHandler(responses))
                // the device flow (RFC 8628, decisions §16): the start here; the user's step is /activar
                // (device/ActivationController), a page of the web chain, not Spring Authorization Server's
                // verification endpoint
                .deviceAuthorizationEndpoint(device -> device
                    .deviceAuthorizationRequestConverters(converters -> {
                        converters.clear();
                        converters.add(new DeviceAuthorizationRequests());
                    })
                    .authenticationProviders(providers -> {
                        providers.clear();
                        providers.add(deviceStart);
                    })
                    .deviceAuthorizationResponseHandler(new DeviceAuthorizationResponses(responses,
                            properties.issuerUrl()))
                    .errorResponseHandler(responses))
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
                    .errorResponseHandler(responses))
                .authorizationEndpoint(authorize -> authorize
                    .authenticationProviders(providers -> providers.forEach(provider -> {
                        if (provider instanceof OAuth2AuthorizationCodeRequestAuthenticationProvider codeRequests) {
                            codeRequests.setAuthenticationValidator(authorizeChecks);
                        }
                    }))
                    .errorResponseHandler(authorizeErrors))
                .oidc(oidc -> oidc
                    .providerConfigurationEndpoint(configuration -> configuration
                        .providerConfigurationCustomizer(discovery))
                    .userInfoEndpoint(userInfo -> userInfo
                        .userInfoRequestConverter(new UserInfoRequests(tokens, limits))
                        .authenticationProviders(providers -> {
                            providers.clear();
                            providers.add(new UserInfoClaims());
                        })
                        .errorResponseHandler(new BearerErrorResponses(json)))))
            .authorizeHttpRequests(authorize -> authorize
                // the UserInfo endpoint checks its bearer token itself (UserInfoRequests)
                // revocation and introspection: the client authenticates at the endpoint (TokenRequestConverter)
                .requestMatchers(Endpoints.TOKEN_ENDPOINT, Endpoints.PUBLIC_JSON, Endpoints.USERINFO_ENDPOINT, Endpoints.REVOKE_INTROSPECT, Endpoints.DEVICE_ENDPOINT)
                    .permitAll()
                .anyRequest().authenticated())
            // Spring Authorization Server turns on a JWT resource server for its UserInfo endpoint; this
            // server's access tokens are not JWTs, and the endpoint's own converter (UserInfoRequests) reads
            // and checks them, so that filter is given no token to look at.
            .oauth2ResourceServer(resourceServer -> resourceServer.bearerTokenResolver(request -> null))
            .addFilterBefore(new WithoutSession(Endpoints.SESSIONLESS), SecurityContextHolderFilter.class)
            .addFilterBefore(new StandardMethodCheck(Map.of(Endpoints.USERINFO, new LinkedHashSet<>(List.of("GET", "POST")),
                    Endpoints.REVOKE, Set.of("POST"), Endpoints.INTROSPECT, Set.of("POST"), Endpoints.DEVICE, Set.of("POST"))), SecurityContextHolderFilter.class)
            .addFilterBefore(new TokenEndpointMethodCheck(Endpoints.TOKEN_ENDPOINT, responses), CsrfFilter.class)
            .addFilterBefore(new RateLimitFilter(limits, Endpoints.CLIENT_ENDPOINTS), TokenEndpointMethodCheck.class)
            .addFilterBefore(new JsonContentTypeFilter(Endpoints.PUBLIC_JSON), TokenEndpointMethodCheck.class)
            // after client authentication (AbstractPreAuthenticatedProcessingFilter + 1), before the token
            // endpoint (AuthorizationFilter + 1)
            .addFilterBefore(new AuthenticatedClientFilter(limits), AuthorizationFilter.class)
            // after Spring Authorization Server validated the authorization request, before the login page
            .addFilterBefore(new AuthenticationRequestFilter(Endpoints.AUTHORIZE_ENDPOINT, authorizeErrors, idTokenHints, secondStep, clock),
                    AuthorizationFilter.class)
            .addFilterBefore(new PasswordChangeGate(), AuthorizationFilter.class)
            // then the consent of a third-party application, offline_access or prompt=consent
            .addFilterBefore(new ConsentFilter(Endpoints.AUTHORIZE_ENDPOINT, clients, consents, authorizeErrors, clock),
                    AuthorizationFilter.class)
            .exceptionHandling(ex -> ex.authenticationEntryPoint(new LoginRedirectEntryPoint()))
            .requestCache(cache -> cache.disable())
            // A session that was ended (account disabled, role changed) is deleted from the database
            // (web/SessionConfig), so it is simply absent here, on every instance: no registry check.
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

    /** The remaining steps: redirect URI, revoked client, the code and its exchange. */
    @Bean
    AuthorizationCodeExchange authorizationCodeExchange(DatabaseAuthorizationService authorizations,
            OAuth2TokenGenerator<OAuth2Token> tokenGenerator, SigningKeys signingKeys, RefreshTokens refreshTokens,
            TransactionTemplate transactions, Clock clock, ApplicationEventPublisher events) {
        return new AuthorizationCodeExchange(authorizations, tokenGenerator, signingKeys, refreshTokens, transactions,
                clock, events);
    }

    /** The refresh grant: rotation with reuse detection (decisions §12.4); a provider bean like the two above. */
    @Bean
    RefreshTokenExchange refreshTokenExchange(RefreshTokens refreshTokens, DatabaseAuthorizationService authorizations,
            AccountService accounts, OAuth2TokenGenerator<OAuth2Token> tokenGenerator, SigningKeys signingKeys,
            TransactionTemplate transactions, Clock clock) {
        return new RefreshTokenExchange(refreshTokens, authorizations, accounts, tokenGenerator, signingKeys,
                transactions, clock);
    }

    /** The device code grant (RFC 8628 §3.4): polls, and the one that spends an approved run; a provider bean. */
    @Bean
    DeviceCodeExchange deviceCodeExchange(DeviceAuthorizations devices, DatabaseAuthorizationService authorizations,
            AccountService accounts, OAuth2TokenGenerator<OAuth2Token> tokenGenerator, SigningKeys signingKeys,
            TransactionTemplate transactions, Clock clock) {
        return new DeviceCodeExchange(devices, authorizations, accounts, tokenGenerator, signingKeys, transactions, clock);
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

    /** Introspection (RFC 7662): any application's access tokens, its own refresh tokens. */
    @Bean
    TokenIntrospection tokenIntrospection(ApiTokenValidator tokens, RefreshTokens refreshTokens, AccountService accounts,
            IdentityProperties properties, Clock clock) {
        return new TokenIntrospection(tokens, refreshTokens, accounts, properties.issuerUrl(), clock);
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
                .build();
    }

    /** 64-hex access tokens stored as API tokens, and RS256 id_tokens with this service's claims. */
    @Bean
    OAuth2TokenGenerator<OAuth2Token> tokenGenerator(JwtEncoder jwtEncoder, ApiTokenService tokens,
            RefreshTokens refreshTokens, Clock clock) {
        var idTokens = new JwtGenerator(jwtEncoder);
        idTokens.setJwtCustomizer(new IdTokenClaims());
        return new DelegatingOAuth2TokenGenerator(new ReferenceAccessTokenGenerator(tokens, clock),
                new RefreshTokenGenerator(refreshTokens), idTokens);
    }
}
