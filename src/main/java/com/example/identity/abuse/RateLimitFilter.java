package com.example.identity.abuse;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.abuse.RateLimits.Budget;

/**
 * The address budget of {@code /oauth/token.php}, around the whole endpoint. Before: an address that has
 * spent its {@link Budget#TOKEN_FAILURES} gets 429 with {@code Retry-After}, whatever it sends (so a
 * guesser learns nothing from which answers still get through). After: a 400 or 401 spends one failure of
 * the address only when no client authenticated in this request: an unknown client, a wrong secret, a
 * malformed request. Once a client proved its secret, its failures (unknown, used or expired code, wrong
 * {@code redirect_uri} or {@code code_verifier}) are its own business and cost the address nothing; the
 * client pays one request of its per-second rate for each, in {@link AuthenticatedClientFilter}, which is
 * also the one place that says a client authenticated ({@link #authenticatedClient}).
 */
public class RateLimitFilter extends OncePerRequestFilter {

    /** Request attribute: the id of the client that authenticated in this request. */
    private static final String AUTHENTICATED_CLIENT = RateLimitFilter.class.getName() + ".authenticatedClient";

    private final RateLimits limits;
    private final RequestMatcher tokenEndpoint;

    public RateLimitFilter(RateLimits limits, RequestMatcher tokenEndpoint) {
        this.limits = limits;
        this.tokenEndpoint = tokenEndpoint;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !limits.enabled() || !"POST".equals(request.getMethod()) || !tokenEndpoint.matches(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String address = ClientAddress.key(request);
        long wait = limits.blockedFor(Budget.TOKEN_FAILURES, address);
        if (wait > 0) {
            TooManyRequests.forOAuthEndpoint(request).write(response, wait);
            return;
        }
        chain.doFilter(request, response);
        int status = response.getStatus();
        if ((status == HttpServletResponse.SC_BAD_REQUEST || status == HttpServletResponse.SC_UNAUTHORIZED)
                && authenticatedClient(request) == null) {
            limits.recordFailure(Budget.TOKEN_FAILURES, address);
        }
    }

    /** Set by {@link AuthenticatedClientFilter} only, once the client's secret matched. */
    static void authenticatedClient(HttpServletRequest request, String clientId) {
        request.setAttribute(AUTHENTICATED_CLIENT, clientId);
    }

    /** The client that authenticated in this request, or null when none did (yet). */
    public static @Nullable String authenticatedClient(HttpServletRequest request) {
        return request.getAttribute(AUTHENTICATED_CLIENT) instanceof String clientId ? clientId : null;
    }
}
