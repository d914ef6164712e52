package com.example.identity.abuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.common.JsonContent;


/**
 * Applies {@link RateLimits} to one endpoint family. Before: a source address or client that has spent
 * its failures, or a client/token over its rate, gets 429 with {@code Retry-After} in the endpoint's own
 * JSON shape. After: a 400 or 401 answer spends one failure of the address, and of the token or of the
 * client when the client had authenticated ({@link #clientAuthenticated}). Successful requests only
 * draw on the per-client rate, so busy legitimate clients are not slowed.
 */
public class RateLimitFilter extends OncePerRequestFilter {

    /** Which endpoint family: how to find the client or token key, and how to write the 429. */
    public enum Family {
        /** {@code /oauth/token.php}: keyed by {@code client_id}, body {@code {"error":...}}. */
        TOKEN_ENDPOINT("{\"error\":\"Demasiadas solicitudes, inténtalo más tarde\"}"),
        /** {@code /api/**}: keyed by the bearer token, body {@code {"ok":false,"error":...}}. */
        API("{\"ok\":false,\"error\":\"Demasiadas solicitudes, inténtalo más tarde\"}");

        private final byte[] body;

        Family(String body) {
            this.body = body.getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Request attribute: the token endpoint authenticated the client of this request. */
    private static final String CLIENT_AUTHENTICATED = RateLimitFilter.class.getName() + ".clientAuthenticated";

    private final RateLimits limits;
    private final Family family;

    public RateLimitFilter(RateLimits limits, Family family) {
        this.limits = limits;
        this.family = family;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !limits.enabled() || (family == Family.TOKEN_ENDPOINT && !"POST".equals(request.getMethod()));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String address = family.name() + "|addr|" + request.getRemoteAddr();
        String caller = callerKey(request);
        long wait = Math.max(limits.failureBlockedFor(address), caller == null ? 0 : limits.failureBlockedFor(caller));
        if (wait == 0 && caller != null) {
            wait = limits.tryRequest(caller);
        }
        if (wait > 0) {
            tooMany(response, wait);
            return;
        }
        chain.doFilter(request, response);
        int status = response.getStatus();
        if (status == HttpServletResponse.SC_BAD_REQUEST || status == HttpServletResponse.SC_UNAUTHORIZED) {
            limits.recordFailure(address);
            if (caller != null && (family == Family.API || request.getAttribute(CLIENT_AUTHENTICATED) != null)) {
                limits.recordFailure(caller);
            }
        }
    }

    /**
     * Called by the token endpoint once a client's secret matched: from then on this request's failures
     * are the client's own and count against its budget. Failures before that (wrong secrets, missing
     * parameters) count against the address only, since a {@code client_id} is public and anyone could
     * otherwise lock a legitimate application out of the token endpoint.
     */
    public static void clientAuthenticated() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (attributes != null) {
            attributes.setAttribute(CLIENT_AUTHENTICATED, Boolean.TRUE, RequestAttributes.SCOPE_REQUEST);
        }
    }

    /** The client id of a token request, or a short prefix of a bearer token (never the whole token). */
    private String callerKey(HttpServletRequest request) {
        if (family == Family.TOKEN_ENDPOINT) {
            String clientId = request.getParameter("client_id");
            return clientId == null || clientId.isEmpty() || clientId.length() > 100 ? null
                    : family.name() + "|client|" + clientId;
        }
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization != null && authorization.length() >= 7 + 16
                && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return family.name() + "|token|" + authorization.substring(7, 7 + 16);
        }
        return null;
    }

    private void tooMany(HttpServletResponse response, long seconds) throws IOException {
        response.setStatus(429);
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentType(JsonContent.TYPE);
        response.getOutputStream().write(family.body);
    }
}
