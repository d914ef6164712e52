package com.example.identity.oauth;

import java.time.Clock;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
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
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.transaction.support.TransactionTemplate;
import org.thymeleaf.TemplateEngine;

import com.example.identity.IdentityProperties;
import com.example.identity.account.AccountService;
import com.example.identity.keys.SigningKeys;
import com.example.identity.login.LoginRedirectEntryPoint;
import com.example.identity.account.PasswordChangeGate;
import com.example.identity.token.ApiTokenService;
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
 * claims ({@link IdTokenClaims}); the discovery document ({@link DiscoveryDocument}).
 */
@Configuration(proxyBeanMethods = false)
class AuthorizationServerConfig {

    static final String AUTHORIZE = "/oauth/authorize.php";
    static final String TOKEN = "/oauth/token.php";
    static final String JWKS = "/oauth/jwks.json";
    static final String DISCOVERY = "/.well-known/openid-configuration";

    private static final PathPatternRequestMatcher.Builder PATH = PathPatternRequestMatcher.withDefaults();
    static final RequestMatcher TOKEN_ENDPOINT = PATH.matcher(TOKEN);
    /** The authorization endpoint, by GET or POST (OIDC Core §3.1.2.1). */
    static final RequestMatcher AUTHORIZE_ENDPOINT = new OrRequestMatcher(PATH.matcher(HttpMethod.GET, AUTHORIZE),
            PATH.matcher(HttpMethod.POST, AUTHORIZE));
    /** The two public JSON documents, the key set and the discovery document. */
    static final RequestMatcher PUBLIC_JSON = new OrRequestMatcher(PATH.matcher(JWKS), PATH.matcher(DISCOVERY));
    static final RequestMatcher ENDPOINTS = new OrRequestMatcher(PATH.matcher(AUTHORIZE), TOKEN_ENDPOINT, PUBLIC_JSON);

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
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityFilterChain authorizationServerFilterChain(HttpSecurity http, TokenRequestConverter tokenRequests,
            ClientCredentialsChecks clientChecks, AuthorizationCodeExchange codeExchange, TokenResponses responses,
            AuthorizeRequestChecks authorizeChecks, AuthorizeErrorResponder authorizeErrors,
            DiscoveryDocument discovery, RateLimits limits, IdTokenHints idTokenHints, Clock clock) throws Exception {
        http
            .securityMatcher(ENDPOINTS)
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
                    .authenticationProviders(providers -> {
                        providers.clear();
                        providers.add(codeExchange);
                    })
                    .accessTokenResponseHandler(responses)
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
                        .providerConfigurationCustomizer(discovery))))
            .authorizeHttpRequests(authorize -> authorize
                .requestMatchers(TOKEN_ENDPOINT, PUBLIC_JSON).permitAll()
                .anyRequest().authenticated())
            .addFilterBefore(new WithoutSession(new OrRequestMatcher(TOKEN_ENDPOINT, PUBLIC_JSON)),
                    SecurityContextHolderFilter.class)
            .addFilterBefore(new TokenEndpointMethodCheck(TOKEN_ENDPOINT, responses), CsrfFilter.class)
            .addFilterBefore(new RateLimitFilter(limits, TOKEN_ENDPOINT), TokenEndpointMethodCheck.class)
            .addFilterBefore(new JsonContentTypeFilter(PUBLIC_JSON), TokenEndpointMethodCheck.class)
            // after client authentication (AbstractPreAuthenticatedProcessingFilter + 1), before the token
            // endpoint (AuthorizationFilter + 1)
            .addFilterBefore(new AuthenticatedClientFilter(limits), AuthorizationFilter.class)
            // after Spring Authorization Server validated the authorization request, before the login page
            .addFilterBefore(new AuthenticationRequestFilter(AUTHORIZE_ENDPOINT, authorizeErrors, idTokenHints, clock),
                    AuthorizationFilter.class)
            .addFilterBefore(new PasswordChangeGate(), AuthorizationFilter.class)
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
    TokenRequestConverter tokenRequestConverter() {
        return new TokenRequestConverter();
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
            OAuth2TokenGenerator<OAuth2Token> tokenGenerator, SigningKeys signingKeys, ApiTokenService tokens,
            AccountService accounts, TransactionTemplate transactions, Clock clock, ApplicationEventPublisher events) {
        return new AuthorizationCodeExchange(authorizations, tokenGenerator, signingKeys, tokens, accounts, transactions,
                clock, events);
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
                .authorizationEndpoint(AUTHORIZE)
                .tokenEndpoint(TOKEN)
                .jwkSetEndpoint(JWKS)
                .build();
    }

    /** 64-hex access tokens stored as API tokens, and RS256 id_tokens with this service's claims. */
    @Bean
    OAuth2TokenGenerator<OAuth2Token> tokenGenerator(JwtEncoder jwtEncoder, ApiTokenService tokens, Clock clock) {
        var idTokens = new JwtGenerator(jwtEncoder);
        idTokens.setJwtCustomizer(new IdTokenClaims());
        return new DelegatingOAuth2TokenGenerator(new ReferenceAccessTokenGenerator(tokens, clock), idTokens);
    }
}
