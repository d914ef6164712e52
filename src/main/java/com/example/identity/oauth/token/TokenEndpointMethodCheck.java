package com.example.identity.oauth.token;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.oauth.error.TokenError;
import com.example.identity.oauth.error.TokenResponses;

/**
 * The first step of {@code /oauth/token.php}: any method other than POST gets 405
 * {@code Método no permitido, usa POST} with {@code Allow: POST} (decisions §1).
 */
public class TokenEndpointMethodCheck extends OncePerRequestFilter {

    private final RequestMatcher tokenEndpoint;
    private final TokenResponses responses;

    TokenEndpointMethodCheck(RequestMatcher tokenEndpoint, TokenResponses responses) {
        this.tokenEndpoint = tokenEndpoint;
        this.responses = responses;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (tokenEndpoint.matches(request) && !"POST".equals(request.getMethod())) {
            responses.writeError(request, response, TokenError.METHOD_NOT_ALLOWED.exception());
            return;
        }
        chain.doFilter(request, response);
    }
}
