package com.example.identity.oauth.authorize;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.minors.Minors;
import com.example.identity.sanctions.Sanctions;

/**
 * The sanctions step of the authorization endpoint (decisions §26), once the person is known
 * ({@link AuthenticationRequestFilter}) and before anything else is asked of them: while a sanction keeps them out
 * of the requesting application (one in that application, or a global one), the request ends with
 * {@code error=access_denied} at the verified redirect URI ({@link AuthorizeError#SUSPENDED}, with {@code state}),
 * its description ending with when it ends ({@code hasta 2027-01-07T12:00:00Z}, or {@code de forma permanente}): the
 * application can tell the player until when, which it could not ask, not knowing who was refused.
 * Other applications are untouched. {@link Sanctions} answers from its cache: no statement once it is warm.
 * <p>The same step ends every application's request of a child whose parent has not allowed the account yet with
 * {@code access_denied} ({@link AuthorizeError#AWAITING_PARENTAL_CONSENT}, decisions §27), from minors/'s cache.
 */
final class SanctionFilter extends OncePerRequestFilter {

    private final RequestMatcher endpoint;
    private final Sanctions sanctions;
    private final Minors minors;
    private final AuthorizeErrorResponder errors;

    SanctionFilter(RequestMatcher endpoint, KeptOut keptOut, AuthorizeErrorResponder errors) {
        this.endpoint = endpoint;
        this.sanctions = keptOut.sanctions();
        this.minors = keptOut.minors();
        this.errors = errors;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (endpoint.matches(request)
                && request.getAttribute(OAuth2AuthorizationCodeRequestAuthenticationToken.class.getName())
                        instanceof OAuth2AuthorizationCodeRequestAuthenticationToken authorization
                && authentication != null && authentication.isAuthenticated()
                && authentication.getPrincipal() instanceof AccountPrincipal user) {
            var sanction = sanctions.inForce(user.id(), authorization.getClientId());
            if (sanction.isPresent()) {
                errors.onAuthenticationFailure(request, response,
                        AuthorizeError.SUSPENDED.exception(Sanctions.until(sanction.get())));
                return;
            }
            if (minors.awaitingConsent(user.id())) {
                errors.onAuthenticationFailure(request, response, AuthorizeError.AWAITING_PARENTAL_CONSENT.exception());
                return;
            }
        }
        chain.doFilter(request, response);
    }
}
