package com.example.identity.signin;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;

import com.example.identity.Endpoints;
import com.example.identity.abuse.LoginThrottle;
import com.example.identity.account.PasswordHashingBusy;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.LocalRedirect;

/**
 * After a failed login: back to the form with the generic message and the same {@code redirect}, with
 * no authenticated session and nothing that tells whether the e-mail exists. The right password of an account that a
 * sanction keeps out goes to the login page's suspension notice instead ({@link Suspensions}).
 */
public class LoginFailureHandler implements AuthenticationFailureHandler {

    private final LoginThrottle throttle;
    private final ApplicationEventPublisher events;
    private final Suspensions suspensions;

    public LoginFailureHandler(LoginThrottle throttle, ApplicationEventPublisher events, Suspensions suspensions) {
        this.throttle = throttle;
        this.events = events;
        this.suspensions = suspensions;
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException exception) throws IOException {
        if (PasswordHashingBusy.isCauseOf(exception)) {
            // not a wrong password: nothing is counted (the attempt's unit is given back); the error page says
            // "try again in a few seconds"
            LoginThrottle.Attempt attempt = LoginThrottle.attemptOf(request);
            if (attempt != null) {
                attempt.close();
            }
            response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(PasswordHashingBusy.RETRY_AFTER_SECONDS));
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            return;
        }
        String actor = AuditEvent.attemptedAccount(request.getParameter("username"));
        if (exception instanceof Suspensions.SuspendedAccountException suspended) {
            // the right password of a sanctioned account (decisions §26): neither a failure to count nor a login
            LoginThrottle.Attempt attempt = LoginThrottle.attemptOf(request);
            if (attempt != null) {
                attempt.close();
            }
            response.sendRedirect(request.getContextPath() + suspensions.refuse(request, response, suspended.notice(),
                    actor, request.getParameter("redirect")));
            return;
        }
        // the unit the attempt took before the hash stays spent (abuse/LoginThrottleFilter)
        boolean locked = throttle.recordFailure(request, request.getParameter("username"));
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, null, actor));
        if (locked) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_LOCKED, null, actor));
        }
        response.sendRedirect(request.getContextPath()
                + LocalRedirect.pageWithRedirect(Endpoints.LOGIN, "error", request.getParameter("redirect")));
    }
}
