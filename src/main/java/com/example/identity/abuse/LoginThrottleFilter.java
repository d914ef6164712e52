package com.example.identity.abuse;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.common.LocalRedirect;

/**
 * Guards the two forms that check a password, the login and the password change ({@code /cuenta/contrasena}).
 * Runs before the password is checked: a throttled attempt goes back to the form with "try later",
 * the same for every e-mail address, and no password hashing is spent on it.
 */
public class LoginThrottleFilter extends OncePerRequestFilter {

    private static final String LOGIN = "/login/";
    private static final String PASSWORD_CHANGE = "/cuenta/contrasena";

    private final LoginThrottle throttle;

    public LoginThrottleFilter(LoginThrottle throttle) {
        this.throttle = throttle;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return !"POST".equals(request.getMethod()) || !(LOGIN.equals(path) || PASSWORD_CHANGE.equals(path));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (PASSWORD_CHANGE.equals(path)) {
            // the current-password check of a logged-in user counts as a login of that account from here
            Authentication user = SecurityContextHolder.getContext().getAuthentication();
            if (user != null && user.isAuthenticated()
                    && throttle.refuse(user.getName(), LoginThrottle.addressOf(request))) {
                response.sendRedirect(request.getContextPath()
                        + LocalRedirect.pageWithRedirect(PASSWORD_CHANGE, "bloqueado", request.getParameter("redirect")));
                return;
            }
            chain.doFilter(request, response);
            return;
        }
        if (throttle.refuse(request.getParameter("username"), LoginThrottle.addressOf(request))) {
            // counted, not one audit row each: LoginThrottle writes one row per account with the count
            response.sendRedirect(request.getContextPath()
                    + LocalRedirect.pageWithRedirect("/login/", "bloqueado", request.getParameter("redirect")));
            return;
        }
        chain.doFilter(request, response);
    }
}
