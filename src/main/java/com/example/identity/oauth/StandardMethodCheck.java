package com.example.identity.oauth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.common.JsonContent;

/**
 * The endpoints added for standard clients (decisions §12) answer a method they do not serve with a 405,
 * its {@code Allow} header and a body in their own shape, before anything else looks at the request
 * (Spring Authorization Server's endpoint filters match their methods only, and the request would
 * otherwise end at the login page).
 */
final class StandardMethodCheck extends OncePerRequestFilter {

    private static final byte[] BODY = "{\"error\":\"invalid_request\",\"error_description\":\"Metodo no permitido\"}"
            .getBytes(StandardCharsets.UTF_8);

    /** Allowed methods by path, e.g. {@code /oauth/userinfo.php} → GET, POST. */
    private final Map<String, Set<String>> allowed;

    StandardMethodCheck(Map<String, Set<String>> allowed) {
        this.allowed = allowed;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Set<String> methods = allowed.get(request.getRequestURI());
        if (methods == null || methods.contains(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
        response.setHeader(HttpHeaders.ALLOW, String.join(", ", methods));
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentType(JsonContent.TYPE);
        response.setContentLength(BODY.length);
        response.getOutputStream().write(BODY);
    }
}
