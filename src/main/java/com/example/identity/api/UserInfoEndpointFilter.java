package com.example.identity.api;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.common.JsonContent;
import com.example.identity.apitoken.BearerTokenAuthentication;

/**
 * {@code GET /api/userinfo.php}, the games' hot path, answered at the end of its security filter chain,
 * the way Spring Authorization Server answers its own endpoints (its token, key set and UserInfo
 * endpoints are filters): after {@link BearerTokenFilter} has checked the token, the owner's profile is
 * written here, with the same body, status and headers as {@link UserInfoController}, which still answers
 * the other methods (a HEAD, and the 405 of a POST). Measured: Spring MVC's dispatch of this one call (the
 * handler lookup, the return value's content negotiation and message converter, an early flush) was about
 * half of the server's CPU per call (docs/performance.md).
 */
final class UserInfoEndpointFilter extends OncePerRequestFilter {

    private final JsonMapper json;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    UserInfoEndpointFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"GET".equals(request.getMethod());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication caller = contexts.getContext().getAuthentication();
        byte[] body;
        if (caller instanceof BearerTokenAuthentication bearer && UserInfoController.speaksForNoUser(bearer)) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            body = json.writeValueAsBytes(new ApiJson.Error(false, ApiSecurityConfig.DENIED));
        }
        else if (caller instanceof BearerTokenAuthentication bearer) {
            response.setStatus(HttpServletResponse.SC_OK);
            body = json.writeValueAsBytes(UserInfoController.profile(bearer.owner()));
        }
        else {
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
            body = json.writeValueAsBytes(new ApiJson.Error(false, UserInfoController.MISSING));
        }
        response.setContentType(JsonContent.TYPE);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
