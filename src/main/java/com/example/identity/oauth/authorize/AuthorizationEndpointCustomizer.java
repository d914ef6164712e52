package com.example.identity.oauth.authorize;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationProvider;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.stereotype.Component;

import com.example.identity.signin.PasswordChangeGate;
import com.example.identity.web.ChainCustomizer;

/**
 * The authorization endpoint ({@code /oauth/authorize.php}). A request's steps, in order:
 * <ol>
 * <li>a pushed request of {@code /oauth/par.php} taken in place of the browser's parameters, and an application that
 * requires them refusing the others ({@link PushedRequestFilter}, before the CSRF filter);</li>
 * <li>Spring Authorization Server's validation with this service's checks ({@link AuthorizeRequestChecks}: exact
 * redirect URI, revoked client, scopes);</li>
 * <li>then, before the {@code AuthorizationFilter} (after {@link ClientAuthenticationCustomizer}'s filter there):
 * OpenID Connect's request parameters ({@link AuthenticationRequestFilter}: {@code prompt}, {@code max_age},
 * {@code id_token_hint}, ...);</li>
 * <li>a sanction that keeps the person out of the application ({@link SanctionFilter}: {@code access_denied});</li>
 * <li>the pending password change ({@link PasswordChangeGate});</li>
 * <li>the consent of a third-party application ({@link ConsentFilter}: {@code offline_access} or
 * {@code prompt=consent});</li>
 * <li>the code, Spring Authorization Server's; every refusal through {@link AuthorizeErrorResponder}.</li>
 * </ol>
 * The filters are built by {@link AuthorizeSteps}.
 */
@Component
public class AuthorizationEndpointCustomizer implements ChainCustomizer {

    private final AuthorizeRequestChecks authorizeChecks;
    private final AuthorizeErrorResponder authorizeErrors;
    private final AuthorizeSteps steps;

    AuthorizationEndpointCustomizer(AuthorizeRequestChecks authorizeChecks, AuthorizeErrorResponder authorizeErrors,
            AuthorizeSteps steps) {
        this.authorizeChecks = authorizeChecks;
        this.authorizeErrors = authorizeErrors;
        this.steps = steps;
    }

    @Override
    public void customize(HttpSecurity http) {
        http
            .oauth2AuthorizationServer(server -> server
                .authorizationEndpoint(authorize -> authorize
                    .authenticationProviders(providers -> providers.forEach(provider -> {
                        if (provider instanceof OAuth2AuthorizationCodeRequestAuthenticationProvider codeRequests) {
                            codeRequests.setAuthenticationValidator(authorizeChecks);
                        }
                    }))
                    .errorResponseHandler(authorizeErrors)))
            // first of all: a pushed request (RFC 9126) taken in place of the browser's parameters, and an application
            // that requires them refusing the others (before Spring Authorization Server reads the request)
            .addFilterBefore(steps.pushedRequest(), CsrfFilter.class)
            // after Spring Authorization Server validated the authorization request, before the login page
            .addFilterBefore(steps.authenticationRequest(), AuthorizationFilter.class)
            // a sanctioned person, or a child waiting for a parent's consent, gets no code for the application (§26, §27)
            .addFilterBefore(steps.sanction(), AuthorizationFilter.class)
            .addFilterBefore(new PasswordChangeGate(), AuthorizationFilter.class)
            // then the consent of a third-party application, offline_access or prompt=consent
            .addFilterBefore(steps.consent(), AuthorizationFilter.class);
    }
}
