package com.example.identity.login;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.audit.AuditEvent;
import com.example.identity.abuse.LoginThrottle;
import com.example.identity.common.LocalRedirect;

/**
 * After a successful login: 302 to {@code redirect} when it is a local path, else to the dashboard for
 * developers and admins, else to {@code /} (decisions §3). The session id was already changed by
 * Spring Security's session fixation protection.
 */
public class LoginSuccessHandler implements AuthenticationSuccessHandler {

    static final String DASHBOARD = "/dashboard/developer.php";

    private final LoginThrottle throttle;
    private final ApplicationEventPublisher events;

    public LoginSuccessHandler(LoginThrottle throttle, ApplicationEventPublisher events) {
        this.throttle = throttle;
        this.events = events;
    }

    @Override
    public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
            Authentication authentication) throws IOException {
        throttle.recordSuccess(request.getParameter("username"), LoginThrottle.addressOf(request));
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_SUCCEEDED, null, authentication.getName()));
        String target = LocalRedirect.orNull(request.getParameter("redirect"));
        if (target == null) {
            boolean developer = authentication.getPrincipal() instanceof AccountPrincipal p && p.rol().isDeveloper();
            target = developer ? DASHBOARD : "/";
        }
        response.sendRedirect(request.getContextPath() + target);
    }
}
