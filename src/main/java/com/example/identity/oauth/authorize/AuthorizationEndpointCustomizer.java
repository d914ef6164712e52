package com.example.identity.oauth.authorize;

import java.time.Clock;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.consent.Consents;
import com.example.identity.oauth.store.PushedRequests;
import com.example.identity.sanctions.Sanctions;
import com.example.identity.signin.PasswordChangeGate;
import com.example.identity.signin.SecondStep;

/**
 * The authorization endpoint ({@code /oauth/authorize.php}): Spring Authorization Server's validation with this
 * service's checks ({@link AuthorizeRequestChecks}: exact redirect URI, revoked client, scopes), its refusals
 * ({@link AuthorizeErrorResponder}); first of all the pushed requests of {@code /oauth/par.php}
 * ({@link PushedRequestFilter}: taken in place of the browser's parameters; required by some applications); then, in
 * this order before the {@code AuthorizationFilter} (after
 * {@link ClientAuthenticationCustomizer}'s filter there): OpenID Connect's request parameters
 * ({@link AuthenticationRequestFilter}: {@code prompt}, {@code max_age}, {@code id_token_hint}, ...), a sanction
 * that keeps the person out of the application ({@link SanctionFilter}: {@code access_denied}), the pending password
 * change ({@link PasswordChangeGate}) and the consent of a third-party application ({@link ConsentFilter}:
 * {@code offline_access} or {@code prompt=consent}).
 */
@Component
public class AuthorizationEndpointCustomizer {

    private final AuthorizeRequestChecks authorizeChecks;
    private final AuthorizeErrorResponder authorizeErrors;
    private final IdTokenHints idTokenHints;
    private final SecondStep secondStep;
    private final RegisteredClientRepository clients;
    private final Consents consents;
    private final Sanctions sanctions;
    private final Clock clock;
    private final PushedRequests pushedRequests;

    AuthorizationEndpointCustomizer(AuthorizeRequestChecks authorizeChecks, AuthorizeErrorResponder authorizeErrors,
            IdTokenHints idTokenHints, SecondStep secondStep, RegisteredClientRepository clients, Consents consents,
            Sanctions sanctions, Clock clock, PushedRequests pushedRequests) {
        this.pushedRequests = pushedRequests;
        this.authorizeChecks = authorizeChecks;
        this.authorizeErrors = authorizeErrors;
        this.idTokenHints = idTokenHints;
        this.secondStep = secondStep;
        this.clients = clients;
        this.consents = consents;
        this.sanctions = sanctions;
        this.clock = clock;
    }

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
            .addFilterBefore(new PushedRequestFilter(Endpoints.AUTHORIZE_ENDPOINT, pushedRequests, clients,
                    authorizeErrors, clock), CsrfFilter.class)
            // after Spring Authorization Server validated the authorization request, before the login page
            .addFilterBefore(new AuthenticationRequestFilter(Endpoints.AUTHORIZE_ENDPOINT, authorizeErrors, idTokenHints,
                    secondStep, clock), AuthorizationFilter.class)
            // a sanctioned person gets no code for the application (decisions §26)
            .addFilterBefore(new SanctionFilter(Endpoints.AUTHORIZE_ENDPOINT, sanctions, authorizeErrors),
                    AuthorizationFilter.class)
            .addFilterBefore(new PasswordChangeGate(), AuthorizationFilter.class)
            // then the consent of a third-party application, offline_access or prompt=consent
            .addFilterBefore(new ConsentFilter(Endpoints.AUTHORIZE_ENDPOINT, clients, consents, authorizeErrors, clock),
                    AuthorizationFilter.class);
    }
}
