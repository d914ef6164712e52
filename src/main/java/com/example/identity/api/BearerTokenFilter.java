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

import com.example.identity.token.ApiTokenService;
import com.example.identity.token.BearerTokenAuthentication;
import com.example.identity.token.TokenOwner;

/**
 * Authenticates {@code /api/**} requests that carry {@code Authorization: Bearer <token>} (the scheme
 * matched case-insensitively, RFC 6750 §2.1) through the token service. A bearer token that is unknown,
 * revoked, expired or malformed, or more than one {@code Authorization} header, ends the request with 401
 * {@code Token inválido o revocado} and {@code WWW-Authenticate: Bearer error="invalid_token"}. The
 * authentication lives for this request only (a request attribute): it never creates or joins a session.
 */
class BearerTokenFilter extends OncePerRequestFilter {

    static final String INVALID = "Token inválido o revocado";

    private final ApiTokenService tokens;
    private final SecurityContextRepository requestContexts;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    /**
     * @param requestContexts where the authentication is kept for this request only; the chain's
     *     repository consults it first, so nothing downstream mistakes the bearer for a login to be
     *     saved in a session
     */
    BearerTokenFilter(ApiTokenService tokens, SecurityContextRepository requestContexts) {
        this.tokens = tokens;
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
        Optional<TokenOwner> owner = headers.size() == 1 ? tokens.authenticate(bearer.get().substring(7).strip())
                : Optional.empty();
        if (owner.isEmpty()) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"");
            ApiJson.error(response, HttpServletResponse.SC_UNAUTHORIZED, INVALID);
            return;
        }
        var context = contexts.createEmptyContext();
        context.setAuthentication(new BearerTokenAuthentication(owner.get()));
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
