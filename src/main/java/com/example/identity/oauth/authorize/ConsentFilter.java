package com.example.identity.oauth.authorize;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriUtils;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.consent.ConsentDecisions;
import com.example.identity.consent.Consents;
import com.example.identity.oidc.RequestedClaims;

/**
 * The consent step of the authorization endpoint (decisions §12.6, §12.2), after the login steps of
 * {@link AuthenticationRequestFilter} and before Spring Authorization Server issues the code. Consent is
 * needed for a third-party application the user has not yet granted every requested scope, and always
 * for {@code offline_access}, for {@code prompt=consent} and for a third-party native application (RFC 8252
 * §8.6: its identity cannot be assured, so an earlier consent is not reused silently; a first-party one, set
 * by an admin, is not asked). Then: with {@code prompt=none},
 * {@code consent_required} to the redirect URI; otherwise the consent page
 * ({@code /oauth/consent}, consent/ConsentController), which sends the user back to this same request
 * once approved ({@link ConsentDecisions}), or {@code access_denied} to the redirect URI when denied.
 * Spring Authorization Server's own consent support is not used: it keeps the pending request as an
 * authorization with a {@code state} token in its {@code OAuth2AuthorizationService}, which here stores
 * only issued codes, and it cannot ask every time for one scope.
 */
final class ConsentFilter extends OncePerRequestFilter {


    private final RequestMatcher endpoint;
    private final RegisteredClientRepository clients;
    private final Consents consents;
    private final AuthorizeErrorResponder errors;
    private final Clock clock;

    ConsentFilter(RequestMatcher endpoint, RegisteredClientRepository clients, Consents consents,
            AuthorizeErrorResponder errors, Clock clock) {
        this.endpoint = endpoint;
        this.clients = clients;
        this.consents = consents;
        this.errors = errors;
        this.clock = clock;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (!endpoint.matches(request)
                || !(request.getAttribute(OAuth2AuthorizationCodeRequestAuthenticationToken.class.getName())
                        instanceof OAuth2AuthorizationCodeRequestAuthenticationToken authorization)
                || authentication == null || !authentication.isAuthenticated()
                || !(authentication.getPrincipal() instanceof AccountPrincipal user)) {
            chain.doFilter(request, response);
            return;
        }
        RegisteredClient client = clients.findByClientId(authorization.getClientId());
        if (client == null) {
            chain.doFilter(request, response);
            return;
        }
        Set<String> prompt = words(request.getParameter("prompt"));
        // user claims asked for with the claims parameter need the consent of the scope that brings them
        Set<String> scopes = new java.util.LinkedHashSet<>(authorization.getScopes());
        scopes.addAll(RequestedClaims.consentScopes(request.getParameter("claims")));
        boolean thirdParty = !DatabaseRegisteredClientRepository.isFirstParty(client);
        // RFC 8252 §8.6: a native application is a public client whose redirect (a loopback port, a private-use
        // scheme) another program on the device can claim, so a request with its client id does not prove it
        // comes from it; a third-party one is asked every time, never approved silently from an earlier consent
        boolean needed = prompt.contains("consent") || scopes.contains(DatabaseRegisteredClientRepository.OFFLINE_ACCESS)
                || (thirdParty && DatabaseRegisteredClientRepository.isNative(client))
                || (thirdParty && !consents.covers(user.id(), client.getClientId(), scopes));
        String back = AuthenticationRequestFilter.wayBack(request);
        if (!needed || ConsentDecisions.consume(request.getSession(false), back, clock.instant())) {
            chain.doFilter(request, response);
            return;
        }
        if (prompt.contains("none")) {
            errors.onAuthenticationFailure(request, response, AuthorizeError.CONSENT_REQUIRED.exception());
            return;
        }
        response.sendRedirect(request.getContextPath() + Endpoints.CONSENT + "?request="
                + UriUtils.encode(back, StandardCharsets.UTF_8));
    }

    private static Set<String> words(String value) {
        return value == null || value.isBlank() ? Set.of() : Set.copyOf(Arrays.asList(value.trim().split(" +")));
    }
}
