package com.example.identity.abuse;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Runs in the authorization server's chain after Spring Authorization Server's client authentication
 * and before its token endpoint: reads the authenticated {@link OAuth2ClientAuthenticationToken} from the
 * security context, where that filter puts it once the client's secret matched. It is the one place that
 * tells the limits a client authenticated ({@link RateLimitFilter#authenticatedClient}), so the client a
 * request is charged to is always the one that proved its secret, never a {@code client_id} the request
 * merely names (in the query string or elsewhere); and it takes one request of that client's per-second
 * rate, answering 429 when it is spent. Nothing else is charged to a client.
 */
public class AuthenticatedClientFilter extends OncePerRequestFilter {

    private final RateLimits limits;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    public AuthenticatedClientFilter(RateLimits limits) {
        this.limits = limits;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = contexts.getContext().getAuthentication();
        if (authentication instanceof OAuth2ClientAuthenticationToken client && client.isAuthenticated()
                && client.getRegisteredClient() != null) {
            String clientId = client.getRegisteredClient().getClientId();
            RateLimitFilter.authenticatedClient(request, clientId);
            long wait = limits.tryRequest("client|" + clientId);
            if (wait > 0) {
                TooManyRequests.forOAuthEndpoint(request).write(response, wait);
                return;
            }
        }
        chain.doFilter(request, response);
    }
}
