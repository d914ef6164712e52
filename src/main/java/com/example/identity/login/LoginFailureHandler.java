package com.example.identity.login;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;

import com.example.identity.audit.AuditEvent;

/**
 * After a failed login: back to the form with the generic message and the same {@code redirect}, with
 * no authenticated session and nothing that tells whether the e-mail exists.
 */
public class LoginFailureHandler implements AuthenticationFailureHandler {

    private final LoginThrottle throttle;
    private final ApplicationEventPublisher events;

    public LoginFailureHandler(LoginThrottle throttle, ApplicationEventPublisher events) {
        this.throttle = throttle;
        this.events = events;
    }

    /**
     * The address typed in the form, for the audit line, only when it looks like one: people sometimes
     * type their password in the e-mail field, and a password must never reach the trail.
     */
    static String attemptedAccount(String username) {
        return username != null && username.length() <= 254 && username.matches("[^@\\s]+@[^@\\s]+")
                ? username.strip() : "(no es un correo)";
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException exception) throws IOException {
        throttle.recordFailure(request.getParameter("username"), request.getRemoteAddr());
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, null,
                attemptedAccount(request.getParameter("username"))));
        response.sendRedirect(request.getContextPath()
                + LocalRedirect.pageWithRedirect("/login/", "error", request.getParameter("redirect")));
    }
}
