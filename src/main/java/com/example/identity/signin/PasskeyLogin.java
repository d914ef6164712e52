package com.example.identity.signin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;

import com.example.identity.abuse.LoginThrottle;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.LocalRedirect;
import com.example.identity.sanctions.SuspensionNotice;
import com.example.identity.session.OpenSessions;

/**
 * The answers of Spring Security's passkey login ({@code POST /login/webauthn}), replacing its own: its
 * authentication names the WebAuthn user entity, so the session is given the account's
 * {@link AccountPrincipal} instead (with the passkey's factor, amr {@code hwk}), like a password login;
 * an account that was disabled since it registered the passkey is refused (Spring's provider does not check).
 * A passkey proves possession of the device and, with user verification (required, {@link PasskeyConfig}),
 * the person holding it: two factors in one, so it logs in without the second step and its logins count as
 * multi-factor (amr {@code hwk mfa}, account/LoginFactors). JSON for the page's script: {@code {"authenticated":true,
 * "redirectUrl":...}} or 401 {@code {"authenticated":false}}; an account that a sanction keeps out gets 403
 * {@code {"authenticated":false,"redirectUrl":...}}, the login page with the suspension notice ({@link Suspensions}).
 */
public final class PasskeyLogin implements AuthenticationSuccessHandler, AuthenticationFailureHandler {

    private final UserDetailsService users;
    private final ApplicationEventPublisher events;
    private final LoginThrottle throttle;
    private final Suspensions suspensions;
    private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

    public PasskeyLogin(UserDetailsService users, ApplicationEventPublisher events, LoginThrottle throttle,
            Suspensions suspensions) {
        this.suspensions = suspensions;
        this.users = users;
        this.events = events;
        this.throttle = throttle;
    }

    @Override
    public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
            Authentication passkey) throws IOException {
        UserDetails account;
        try {
            account = users.loadUserByUsername(passkey.getName());
        }
        catch (UsernameNotFoundException e) {
            account = null;
        }
        if (!(account instanceof AccountPrincipal user) || !user.isEnabled()) {
            var empty = SecurityContextHolder.createEmptyContext();
            SecurityContextHolder.setContext(empty);
            contexts.saveContext(empty, request, response);
            events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, "llave de acceso de una cuenta desactivada",
                    passkey.getName()));
            write(response, HttpServletResponse.SC_UNAUTHORIZED, "{\"authenticated\":false}");
            return;
        }
        var sanction = suspensions.of(user.id());
        if (sanction.isPresent()) {
            String page = suspensions.refuse(request, response, SuspensionNotice.of(sanction.get()), user.getUsername(),
                    LocalRedirect.orNull(request.getParameter("redirect")));
            write(response, HttpServletResponse.SC_FORBIDDEN, "{\"authenticated\":false,\"redirectUrl\":\""
                    + jsonString(request.getContextPath() + page) + "\"}");
            return;
        }
        List<GrantedAuthority> authorities = new ArrayList<>(passkey.getAuthorities());
        // the second factor of a password login waiting in this session (signin/SecondStep): both factors
        authorities.addAll(SecondStep.passwordFactorOfPendingLogin(request, user.getUsername()));
        var authentication = UsernamePasswordAuthenticationToken.authenticated(user, null, authorities);
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(authentication);
        SecurityContextHolder.setContext(context);
        request.changeSessionId(); // a new session id at login, as for a password (session fixation)
        contexts.saveContext(context, request, response);
        String agent = request.getHeader("User-Agent");
        request.getSession().setAttribute(OpenSessions.AGENT, agent == null ? "" : agent.substring(0, Math.min(agent.length(), 300)));
        request.getSession().setAttribute(OpenSessions.ADDRESS, request.getRemoteAddr());
        // a whole login (alone, or the second step of a password login): the login throttle's success
        throttle.recordSuccess(user.getUsername(), LoginThrottle.addressOf(request));
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_SUCCEEDED, "con llave de acceso", user.getUsername()));
        String target = LoginSuccessHandler.target(authentication, LocalRedirect.orNull(request.getParameter("redirect")));
        write(response, HttpServletResponse.SC_OK, "{\"authenticated\":true,\"redirectUrl\":\""
                + jsonString(request.getContextPath() + target) + "\"}");
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException exception) throws IOException {
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, "llave de acceso", null));
        write(response, HttpServletResponse.SC_UNAUTHORIZED, "{\"authenticated\":false}");
    }

    private static void write(HttpServletResponse response, int status, String json) throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(json);
    }

    /** A local path (LocalRedirect checked it: no control characters), with quotes and backslashes escaped. */
    private static String jsonString(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
