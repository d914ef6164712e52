package com.example.identity.login;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountPrincipal;

/**
 * A user who logged in with a one-time password may do nothing but change it: every other page (and
 * the authorization endpoint) sends them to {@code /cuenta/contrasena}, carrying where they were going.
 */
public class PasswordChangeGate extends OncePerRequestFilter {

    private static final Set<String> OPEN = Set.of(PasswordChangeController.PATH, "/logout", "/login/", "/error",
            "/favicon.ico");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (auth != null && auth.getPrincipal() instanceof AccountPrincipal user && user.passwordChangeRequired()
                && !OPEN.contains(path) && !path.startsWith("/css/") && !path.startsWith("/js/")) {
            var target = UriComponentsBuilder.fromPath(PasswordChangeController.PATH);
            String query = request.getQueryString();
            String back = query == null ? path : path + "?" + query;
            if ("GET".equals(request.getMethod()) && LocalRedirect.isLocalPath(back)) {
                target.queryParam("redirect", "{back}");
                response.sendRedirect(request.getContextPath() + target.encode().buildAndExpand(back).toUriString());
            }
            else {
                response.sendRedirect(request.getContextPath() + target.build().toUriString());
            }
            return;
        }
        chain.doFilter(request, response);
    }
}
