package com.example.identity.oauth.authorize;

import java.time.Clock;

import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.consent.Consents;
import com.example.identity.oauth.store.PushedRequests;
import com.example.identity.signin.SecondStep;

/**
 * The filters this service puts around Spring Authorization Server's authorization endpoint, each built with what
 * it needs, in the order {@link AuthorizationEndpointCustomizer} places them. Filters are not beans (Spring Boot
 * would register a filter bean for every request of the servlet container): a new one per chain.
 */
@Component
class AuthorizeSteps {

    private final AuthorizeErrorResponder errors;
    private final IdTokenHints idTokenHints;
    private final SecondStep secondStep;
    private final RegisteredClientRepository clients;
    private final Consents consents;
    private final KeptOut keptOut;
    private final Clock clock;
    private final PushedRequests pushedRequests;

    AuthorizeSteps(AuthorizeErrorResponder errors, IdTokenHints idTokenHints, SecondStep secondStep,
            RegisteredClientRepository clients, Consents consents, KeptOut keptOut, Clock clock,
            PushedRequests pushedRequests) {
        this.errors = errors;
        this.idTokenHints = idTokenHints;
        this.secondStep = secondStep;
        this.clients = clients;
        this.consents = consents;
        this.keptOut = keptOut;
        this.clock = clock;
        this.pushedRequests = pushedRequests;
    }

    /** 1. A pushed request (RFC 9126) in place of the browser's parameters; {@code par_obligatorio}. */
    PushedRequestFilter pushedRequest() {
        return new PushedRequestFilter(Endpoints.AUTHORIZE_ENDPOINT, pushedRequests, clients, errors, clock);
    }

    /** 2. OpenID Connect's {@code prompt}, {@code max_age}, {@code id_token_hint}, {@code claims}, ... */
    AuthenticationRequestFilter authenticationRequest() {
        return new AuthenticationRequestFilter(Endpoints.AUTHORIZE_ENDPOINT, errors, idTokenHints, secondStep, clock);
    }

    /**
     * 3. A sanction that keeps the person out of the application (decisions §26), or a child's account waiting for a
     * parent's consent (§27): {@code access_denied}.
     */
    SanctionFilter sanction() {
        return new SanctionFilter(Endpoints.AUTHORIZE_ENDPOINT, keptOut, errors);
    }

    /** 5. (4. is signin/PasswordChangeGate, the pending password change.) The consent of a third-party application ({@code offline_access} or {@code prompt=consent}). */
    ConsentFilter consent() {
        return new ConsentFilter(Endpoints.AUTHORIZE_ENDPOINT, clients, consents, errors, clock);
    }
}
