package com.example.identity.registration;

import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.stereotype.Component;

import java.time.Clock;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.UserAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.session.OpenSessions;
import com.example.identity.signin.LoginSuccessHandler;
import com.example.identity.signin.SecondStep;

/**
 * The confirmation link logs the new account in (decisions §18), as the login form does: a new session id
 * (no fixation), the authentication in the session's security context (shared by every instance,
 * session/), what {@code /cuenta/seguridad} shows of the session, the audit line; and the second step when
 * the account's role requires a second factor ({@code identity.mfa.required-roles}: its enrolment, signin/
 * SecondStep). The factor recorded is Spring Security's one-time token ({@code FACTOR_OTT}, amr {@code otp}):
 * a single-use link that reached the mailbox, not the password typed on another page perhaps a day before.
 */
@Component
class SignUpLogin {

    private final SecondStep secondStep;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

    SignUpLogin(SecondStep secondStep, ApplicationEventPublisher events, Clock clock) {
        this.secondStep = secondStep;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Logs {@code account} in this browser.
     *
     * @param continueTo the checked authorization request to go on with, or null
     * @return where to send the browser: the second step, the authorization request, or the home page
     */
    String login(HttpServletRequest request, HttpServletResponse response, UserAccount account,
            @Nullable String continueTo) {
        AccountPrincipal user = AccountPrincipal.of(account);
        user.eraseCredentials();
        List<GrantedAuthority> authorities = new ArrayList<>(user.getAuthorities());
        authorities.add(FactorGrantedAuthority.withAuthority(FactorGrantedAuthority.OTT_AUTHORITY)
                .issuedAt(clock.instant()).build());
        var authentication = UsernamePasswordAuthenticationToken.authenticated(user, null, authorities);
        // whatever session this browser had (anonymous: the link may be opened anywhere) gets a new id
        request.getSession(true);
        request.changeSessionId();
        String agent = request.getHeader("User-Agent");
        request.getSession().setAttribute(OpenSessions.AGENT, agent == null ? "" : agent.substring(0, Math.min(agent.length(), 300)));
        request.getSession().setAttribute(OpenSessions.ADDRESS, request.getRemoteAddr());
        String secondStepPage = secondStep.begin(request, response, authentication, continueTo);
        if (secondStepPage != null) {
            return secondStepPage;
        }
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(authentication);
        SecurityContextHolder.setContext(context);
        contexts.saveContext(context, request, response);
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_SUCCEEDED, null, account.getCorreo()));
        return LoginSuccessHandler.target(authentication, continueTo);
    }
}
