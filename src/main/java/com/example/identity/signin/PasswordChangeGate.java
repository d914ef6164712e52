package com.example.identity.signin;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.common.LocalRedirect;

/**
 * A user who logged in with a one-time password may do nothing but change it: every other page (and
 * the authorization endpoint) sends them to {@code /cuenta/contrasena}, carrying where they were going.
 */
public class PasswordChangeGate extends OncePerRequestFilter {

    private static final Set<String> OPEN = Set.of(Endpoints.ACCOUNT_PASSWORD, Endpoints.SIGN_OUT, Endpoints.LOGIN,
            Endpoints.ERROR, Endpoints.FAVICON);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (auth != null && auth.getPrincipal() instanceof AccountPrincipal user && user.passwordChangeRequired()
                && !OPEN.contains(path) && !path.startsWith(Endpoints.CSS_PREFIX) && !path.startsWith(Endpoints.JS_PREFIX)) {
            String back = request.getQueryString() == null ? path : path + "?" + request.getQueryString();
            response.sendRedirect(request.getContextPath() + LocalRedirect.pageWithRedirect(Endpoints.ACCOUNT_PASSWORD,
                    null, "GET".equals(request.getMethod()) ? back : null));
            return;
        }
        chain.doFilter(request, response);
    }
}
