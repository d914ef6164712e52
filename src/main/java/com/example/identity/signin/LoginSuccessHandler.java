package com.example.identity.signin;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.audit.AuditEvent;
import com.example.identity.abuse.LoginThrottle;
import com.example.identity.common.LocalRedirect;
import com.example.identity.session.OpenSessions;

/**
 * After a successful login: 302 to {@code redirect} when it is a local path, else to the dashboard for
 * developers and admins, else to {@code /} (decisions §3). The session id was already changed by
 * Spring Security's session fixation protection. An account with a second factor is not logged in yet
 * (signin/SecondStep): its login, and the login throttle's success, wait for the second step.
 */
public class LoginSuccessHandler implements AuthenticationSuccessHandler {


    private final LoginThrottle throttle;
    private final ApplicationEventPublisher events;
    private final SecondStep secondStep;

    public LoginSuccessHandler(LoginThrottle throttle, ApplicationEventPublisher events, SecondStep secondStep) {
        this.throttle = throttle;
        this.events = events;
        this.secondStep = secondStep;
    }

    @Override
    public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
            Authentication authentication) throws IOException {
        // what /cuenta/seguridad shows of this session (session/OpenSessions): small strings
        String agent = request.getHeader("User-Agent");
        request.getSession().setAttribute(OpenSessions.AGENT, agent == null ? "" : agent.substring(0, Math.min(agent.length(), 300)));
        request.getSession().setAttribute(OpenSessions.ADDRESS, request.getRemoteAddr());
        String redirect = LocalRedirect.orNull(request.getParameter("redirect"));
        // an account with a second factor (or whose role requires one) is not logged in yet (signin/SecondStep)
        String secondStepPage = secondStep.begin(request, response, authentication, redirect);
        if (secondStepPage != null) {
            // neither a failure nor a success yet: the attempt's unit is given back before the browser can
            // send the code, which takes a unit of its own (signin/SecondStepController)
            LoginThrottle.Attempt attempt = LoginThrottle.attemptOf(request);
            if (attempt != null) {
                attempt.close();
            }
            response.sendRedirect(request.getContextPath() + secondStepPage);
            return;
        }
        // only a whole login is a success of the throttle (the pair's failures forgiven, the address known): a
        // right password before the second step forgives nothing, or wrong codes would never add up to a lock
        throttle.recordSuccess(request, request.getParameter("username"));
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_SUCCEEDED, null, authentication.getName()));
        response.sendRedirect(request.getContextPath() + target(authentication, redirect));
    }

    /** Where a completed login goes: the page it came from, else the dashboard for developers, else home. */
    public static String target(Authentication authentication, String redirect) {
        if (redirect != null) {
            return redirect;
        }
        boolean developer = authentication.getPrincipal() instanceof AccountPrincipal p && p.rol().isDeveloper();
        return developer ? Endpoints.DEVELOPER_DASHBOARD : "/";
    }
}
