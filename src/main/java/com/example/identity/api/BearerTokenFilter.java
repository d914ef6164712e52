package com.example.identity.api;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.abuse.ClientAddress;
import com.example.identity.abuse.RateLimits;
import com.example.identity.abuse.RateLimits.Budget;
import com.example.identity.abuse.TooManyRequests;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.apitoken.ApiTokenValidator.TokenCheck;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenOwner;

/**
 * Authenticates {@code /api/**} requests that carry {@code Authorization: Bearer <token>} (the scheme
 * matched case-insensitively, RFC 6750 §2.1) through the token service. A bearer token that is unknown,
 * revoked, expired or malformed, or more than one {@code Authorization} header, ends the request with 401
 * {@code Token inválido o revocado} and {@code WWW-Authenticate: Bearer error="invalid_token"}. The
 * authentication lives for this request only (a request attribute): it never creates or joins a session.
 *
 * <p>It also applies the API's limits ({@link RateLimits}), where the token's fate is known. A token that
 * matches nothing (or is malformed, or comes with a second {@code Authorization} header) spends one of the
 * address's {@link Budget#UNKNOWN_TOKENS}; once they are spent, every bearer request of that address gets
 * 429 until they refill. A token that exists but is revoked, expired or of a disabled owner costs nothing:
 * game back ends meet those all day. A valid token draws on its own per-second rate only: no query, no
 * lock, two cache lookups.
 */
class BearerTokenFilter extends OncePerRequestFilter {

    static final String INVALID = "Token inválido o revocado";

    private final ApiTokenValidator tokens;
    private final RateLimits limits;
    private final SecurityContextRepository requestContexts;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    /**
     * @param requestContexts where the authentication is kept for this request only; the chain's
     *     repository consults it first, so nothing downstream mistakes the bearer for a login to be
     *     saved in a session
     */
    BearerTokenFilter(ApiTokenValidator tokens, RateLimits limits, SecurityContextRepository requestContexts) {
        this.tokens = tokens;
        this.limits = limits;
        this.requestContexts = requestContexts;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        List<String> headers = Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION));
        Optional<String> bearer = headers.stream().filter(BearerTokenFilter::isBearer).findFirst();
        if (bearer.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        String address = ClientAddress.key(request);
        long wait = limits.blockedFor(Budget.UNKNOWN_TOKENS, address);
        if (wait > 0) {
            TooManyRequests.API.write(response, wait);
            return;
        }
        TokenCheck check = headers.size() == 1 ? tokens.check(bearer.get().substring(7).strip()) : null;
        if (check == null || !check.valid()) {
            if (check == null || !check.known()) {
                limits.recordFailure(Budget.UNKNOWN_TOKENS, address);
            }
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"");
            ApiJson.error(response, HttpServletResponse.SC_UNAUTHORIZED, INVALID);
            return;
        }
        TokenOwner owner = check.owner();
        wait = limits.tryRequest("token|" + owner.tokenId());
        if (wait > 0) {
            TooManyRequests.API.write(response, wait);
            return;
        }
        var context = contexts.createEmptyContext();
        context.setAuthentication(new BearerTokenAuthentication(owner));
        contexts.setContext(context);
        requestContexts.saveContext(context, request, response);
        try {
            chain.doFilter(request, response);
        }
        finally {
            contexts.clearContext();
        }
    }

    /** {@code Bearer} followed by a space, in any letter case. */
    static boolean isBearer(String header) {
        return header.length() >= 7 && header.regionMatches(true, 0, "Bearer ", 0, 7);
    }

    /** Whether the request presents a bearer token at all (such requests need no CSRF token). */
    static boolean presentsBearer(HttpServletRequest request) {
        return Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION)).stream().anyMatch(BearerTokenFilter::isBearer);
    }
}
