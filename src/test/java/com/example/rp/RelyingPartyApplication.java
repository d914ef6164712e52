package com.example.rp;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.client.OAuth2AuthorizationContext;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.RefreshTokenOAuth2AuthorizedClientProvider;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.client.oidc.web.logout.OidcClientInitiatedLogoutSuccessHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A web site that logs its users in through the identity service with nothing but Spring Security's own
 * OAuth 2.0 client ({@code oauth2Login}), configured from the service's discovery document: the relying
 * party of {@code oauth/SpringRelyingPartyIT}. It runs in the test's JVM as an application of its own
 * (its own package, no configuration file of the service, none of the service's
 * database, session or authorization server auto-configuration).
 */
@SpringBootConfiguration
@EnableAutoConfiguration(excludeName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceInitializationAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.health.DataSourceHealthContributorAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.metrics.DataSourcePoolMetricsAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
        "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration",
        "org.springframework.boot.session.jdbc.autoconfigure.JdbcSessionAutoConfiguration",
        "org.springframework.boot.session.autoconfigure.SessionAutoConfiguration",
        "org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerAutoConfiguration",
        "org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerJwtAutoConfiguration" })
public class RelyingPartyApplication {

    static final String REGISTRATION = "idp";

    @Bean
    SecurityFilterChain relyingParty(HttpSecurity http, ClientRegistrationRepository registrations) throws Exception {
        var logout = new OidcClientInitiatedLogoutSuccessHandler(registrations);
        logout.setPostLogoutRedirectUri("{baseUrl}/logged-out");
        http.authorizeHttpRequests(authorize -> authorize
                        .requestMatchers("/logged-out").permitAll()
                        .anyRequest().authenticated())
                .oauth2Login(Customizer.withDefaults())
                .logout(out -> out.logoutSuccessHandler(logout));
        return http.build();
    }

    @RestController
    static class Pages {

        private final OAuth2AuthorizedClientRepository authorizedClients;

        Pages(OAuth2AuthorizedClientRepository authorizedClients) {
            this.authorizedClients = authorizedClients;
        }

        /** Who is logged in, as Spring Security's OidcUser has it (id_token and UserInfo claims). */
        @GetMapping("/me")
        Map<String, Object> me(@AuthenticationPrincipal OidcUser user) {
            Map<String, Object> me = new LinkedHashMap<>();
            me.put("sub", user.getSubject());
            me.put("email", user.getEmail());
            me.put("name", user.getFullName());
            me.put("fromUserInfo", user.getUserInfo() != null);
            return me;
        }

        /**
         * A refresh with Spring Security's own provider, two hours ahead of now so that it takes the access
         * token for expired; answers the tokens before and after, as a test needs them.
         */
        @GetMapping("/refresh")
        Map<String, String> refresh(OAuth2AuthenticationToken authentication, HttpServletRequest request,
                HttpServletResponse response) {
            OAuth2AuthorizedClient current = authorizedClients.loadAuthorizedClient(REGISTRATION, authentication, request);
            var provider = new RefreshTokenOAuth2AuthorizedClientProvider();
            provider.setClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(2)));
            OAuth2AuthorizedClient refreshed = provider.authorize(
                    OAuth2AuthorizationContext.withAuthorizedClient(current).principal(authentication).build());
            authorizedClients.saveAuthorizedClient(refreshed, authentication, request, response);
            Map<String, String> tokens = new LinkedHashMap<>();
            tokens.put("oldAccess", current.getAccessToken().getTokenValue());
            tokens.put("newAccess", refreshed.getAccessToken().getTokenValue());
            tokens.put("oldRefresh", current.getRefreshToken().getTokenValue());
            tokens.put("newRefresh", refreshed.getRefreshToken().getTokenValue());
            return tokens;
        }

        @GetMapping("/logged-out")
        String loggedOut() {
            return "adios";
        }
    }
}
