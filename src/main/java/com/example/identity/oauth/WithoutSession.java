package com.example.identity.oauth;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Requests that have nothing to do with a login session see none: the token endpoint authenticates the
 * client from the request itself, and the key set and discovery document are public. A session cookie that
 * came along (a relying party's HTTP client that keeps cookies) would otherwise cost a session read in the
 * database on every such request: Spring Security reads the session for the security context, and Spring
 * Authorization Server's client authentication for the session id of its authentication details. Such a
 * request gets no session, and asking to create one is a programming error.
 */
final class WithoutSession extends OncePerRequestFilter {

    private final RequestMatcher sessionless;

    WithoutSession(RequestMatcher sessionless) {
        this.sessionless = sessionless;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !sessionless.matches(request);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(new HttpServletRequestWrapper(request) {
            @Override
            public HttpSession getSession(boolean create) {
                if (create) {
                    throw new IllegalStateException("no session is created for " + getRequestURI());
                }
                return null;
            }

            @Override
            public HttpSession getSession() {
                return getSession(true);
            }

            @Override
            public boolean isRequestedSessionIdValid() {
                return false;
            }
        }, response);
    }
}
