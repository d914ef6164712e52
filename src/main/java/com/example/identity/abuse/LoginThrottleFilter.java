package com.example.identity.abuse;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.common.LocalRedirect;

/**
 * Runs before the password is checked: a throttled attempt goes back to the form with "try later",
 * the same for every e-mail address, and no password hashing is spent on it.
 */
public class LoginThrottleFilter extends OncePerRequestFilter {

    private final LoginThrottle throttle;

    public LoginThrottleFilter(LoginThrottle throttle) {
        this.throttle = throttle;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"POST".equals(request.getMethod())
                || !"/login/".equals(request.getRequestURI().substring(request.getContextPath().length()));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (throttle.refuse(request.getParameter("username"), LoginThrottle.addressOf(request))) {
            // counted, not one audit row each: LoginThrottle writes one row per account with the count
            response.sendRedirect(request.getContextPath()
                    + LocalRedirect.pageWithRedirect("/login/", "bloqueado", request.getParameter("redirect")));
            return;
        }
        chain.doFilter(request, response);
    }
}
