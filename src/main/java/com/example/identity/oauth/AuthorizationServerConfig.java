package com.example.identity.oauth;

import java.time.Clock;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.DelegatingOAuth2TokenGenerator;
import org.springframework.security.oauth2.server.authorization.token.JwtGenerator;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
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
import com.example.identity.abuse.RateLimitFilter;
import com.example.identity.abuse.RateLimits;

import tools.jackson.databind.json.JsonMapper;

/**
 * Chain 1 of 3: Spring Authorization Server, matching only the documented endpoints
 * ({@code /oauth/authorize.php}, {@code /oauth/token.php}, {@code /oauth/jwks.json},
 * {@code /.well-known/openid-configuration}). Every difference from a stock server is one of its
 * extension points, each in its own class: the token endpoint's checks ({@link TokenRequestConverter},
 * {@link ClientCredentialsChecks}, {@link AuthorizationCodeExchange}) and answers ({@link TokenResponses});
 * the authorization endpoint's checks ({@link AuthorizeRequestChecks}) and errors
 * ({@link AuthorizeErrorResponder}); hex access tokens ({@link ReferenceAccessTokenGenerator}); id_token
 * claims ({@link IdTokenClaims}); the discovery document ({@link DiscoveryDocument}).
 */
@Configuration(proxyBeanMethods = false)
class AuthorizationServerConfig {

    static final String AUTHORIZE = "/oauth/authorize.php";
    static final String TOKEN = "/oauth/token.php";
    static final String JWKS = "/oauth/jwks.json";
    static final String DISCOVERY = "/.well-known/openid-configuration";

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityFilterChain authorizationServerFilterChain(HttpSecurity http, RegisteredClientRepository clients,
            DatabaseAuthorizationService authorizations, OAuth2TokenGenerator<?> tokenGenerator,
            SigningKeys signingKeys, ApiTokenService tokens, AccountService accounts, TransactionTemplate transactions,
            Clock clock, JsonMapper json, TemplateEngine templates, RateLimits limits,
            ApplicationEventPublisher events) throws Exception {
        var path = PathPatternRequestMatcher.withDefaults();
        RequestMatcher tokenEndpoint = path.matcher(TOKEN);
        RequestMatcher endpoints = new OrRequestMatcher(path.matcher(AUTHORIZE), tokenEndpoint, path.matcher(JWKS),
                path.matcher(DISCOVERY));
        var responses = new TokenResponses(json);
        var codeExchange = new AuthorizationCodeExchange(authorizations, tokenGenerator, signingKeys, tokens, accounts,
                transactions, clock, events);

        http
            .securityMatcher(endpoints)
            .oauth2AuthorizationServer(server -> server
                .registeredClientRepository(clients)
                .authorizationService(authorizations)
                .tokenGenerator(tokenGenerator)
                .clientAuthentication(client -> client
                    .authenticationConverters(converters -> {
                        converters.clear();
                        converters.add(new TokenRequestConverter());
                    })
                    .authenticationProviders(providers -> {
                        providers.clear();
                        providers.add(new ClientCredentialsChecks(clients));
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
                            codeRequests.setAuthenticationValidator(new AuthorizeRequestChecks());
                        }
                    }))
                    .errorResponseHandler(new AuthorizeErrorResponder(clients, templates)))
                .oidc(oidc -> oidc
                    .providerConfigurationEndpoint(discovery -> discovery
                        .providerConfigurationCustomizer(new DiscoveryDocument()))))
            .authorizeHttpRequests(authorize -> authorize
                .requestMatchers(tokenEndpoint, path.matcher(JWKS), path.matcher(DISCOVERY)).permitAll()
                .anyRequest().authenticated())
            .addFilterBefore(new TokenEndpointMethodCheck(tokenEndpoint, responses), CsrfFilter.class)
            .addFilterBefore(new RateLimitFilter(limits, RateLimitFilter.Family.TOKEN_ENDPOINT) {
                @Override
                protected boolean shouldNotFilter(jakarta.servlet.http.HttpServletRequest request) {
                    return !tokenEndpoint.matches(request) || super.shouldNotFilter(request);
                }
            }, TokenEndpointMethodCheck.class)
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

    @Bean
    AuthorizationServerSettings authorizationServerSettings(IdentityProperties properties) {
        return AuthorizationServerSettings.builder()
                .issuer(properties.issuerUrl())
                .authorizationEndpoint(AUTHORIZE)
                .tokenEndpoint(TOKEN)
                .jwkSetEndpoint(JWKS)
                .build();
    }

    @Bean
    OAuth2TokenGenerator<?> tokenGenerator(JwtEncoder jwtEncoder, ApiTokenService tokens, Clock clock) {
        var idTokens = new JwtGenerator(jwtEncoder);
        idTokens.setJwtCustomizer(new IdTokenClaims());
        return new DelegatingOAuth2TokenGenerator(new ReferenceAccessTokenGenerator(tokens, clock), idTokens);
    }
}
