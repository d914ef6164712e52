package com.example.identity.federation;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.oauth2.client.authentication.OAuth2LoginAuthenticationProvider;
import org.springframework.security.oauth2.client.oidc.authentication.OidcAuthorizationCodeAuthenticationProvider;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserService;

import java.util.List;

import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.signin.PasswordLoginCustomizer;

/**
 * The web chain's login with other providers (decisions §19): Spring Security's OAuth 2.0 client
 * ({@code oauth2Login()}), only when Spring Boot found {@code spring.security.oauth2.client.registration.*}
 * (its {@link ClientRegistrationRepository}); the redirect URI is Spring Security's default
 * {@code {baseUrl}/login/oauth2/code/{registrationId}}. Apply it after signin/PasswordLoginCustomizer: it
 * replaces the chain's authentication manager by the same password login with the providers' in front. The answers are this package's
 * ({@link FederatedLoginSuccess}); a refused or failed login returns to the login page.
 */
@Component
public class FederatedLoginCustomizer {

    private static final Logger log = LoggerFactory.getLogger(FederatedLoginCustomizer.class);

    private final ObjectProvider<ClientRegistrationRepository> registrations;
    private final FederationSettings settings;
    private final Clock clock;
    private final PasswordLoginCustomizer passwordLogin;
    private final FederatedLoginSuccess arrival;

    FederatedLoginCustomizer(ObjectProvider<ClientRegistrationRepository> registrations, FederationSettings settings,
            Clock clock, PasswordLoginCustomizer passwordLogin, FederatedLoginSuccess arrival) {
        this.registrations = registrations;
        this.settings = settings;
        this.clock = clock;
        this.passwordLogin = passwordLogin;
        this.arrival = arrival;
    }

    public void customize(HttpSecurity http) throws Exception {
        ClientRegistrationRepository repository = registrations.getIfAvailable();
        if (repository == null) {
            return;
        }
        var tokenClient = FederatedTokenRequests.tokenClient(settings, repository, clock);
        var userService = FederatedTokenRequests.userService();
        var oidcUserService = new OidcUserService();
        oidcUserService.setOauth2UserService(userService);
        // the chain has an authentication manager of its own (signin/PasswordLoginCustomizer), which the
        // providers oauth2Login() would add are not part of: the same manager, with them in front
        http.authenticationManager(new ProviderManager(List.of(
                new OidcAuthorizationCodeAuthenticationProvider(tokenClient, oidcUserService),
                new OAuth2LoginAuthenticationProvider(tokenClient, userService)),
                passwordLogin.manager()));
        http.oauth2Login(login -> login
                .loginPage(Endpoints.LOGIN)
                .authorizedClientRepository(new NoAuthorizedClients())
                .tokenEndpoint(token -> token.accessTokenResponseClient(tokenClient))
                .userInfoEndpoint(userInfo -> userInfo.userService(userService).oidcUserService(oidcUserService))
                .successHandler(arrival)
                .failureHandler(FederatedLoginCustomizer::failed));
    }

    /** A provider's login that failed (refused, or its answer not valid): logged with its OAuth error code, the login page says so. */
    private static void failed(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        String code = e instanceof OAuth2AuthenticationException oauth ? oauth.getError().getErrorCode() : e.getClass().getSimpleName();
        log.warn("Login with another provider failed: {} ({})", code, e.getMessage());
        response.sendRedirect(Endpoints.LOGIN + "?federado=error");
    }
}
