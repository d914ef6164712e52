package com.example.identity.signin;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.stereotype.Component;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.UserAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.sanctions.SuspensionNotice;
import com.example.identity.session.OpenSessions;

/**
 * Logs an account in after a proof that is not the login form: a mailed sign-up link (registration/, factor
 * one-time token), another provider (federation/, factor federated), the password typed to link an identity.
 * What the login form does after its check: the factor in the authentication, what {@code /cuenta/seguridad}
 * shows of the session, the second step when the account's role or the authorization request asks for it
 * ({@link SecondStep}), else the authentication in the session's security context (shared by every instance,
 * session/) and the audit line. The caller gives the session a new id first (no fixation). An account that a global
 * sanction keeps out is not logged in: the login page shows why and until when ({@link Suspensions}).
 */
@Component
public class AccountLogin {

    private final SecondStep secondStep;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final Suspensions suspensions;
    private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

    AccountLogin(SecondStep secondStep, ApplicationEventPublisher events, Clock clock, Suspensions suspensions) {
        this.suspensions = suspensions;
        this.secondStep = secondStep;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Logs {@code account} in this browser with {@code factor} (a {@link FactorGrantedAuthority} name).
     *
     * @param redirect the checked authorization request to go on with, or null
     * @return where to send the browser: the second step, the authorization request, or home; the login page's
     *     suspension notice when a sanction keeps the account out
     */
    public String login(HttpServletRequest request, HttpServletResponse response, UserAccount account, String factor,
            @Nullable String redirect) {
        var sanction = suspensions.of(account.getId());
        if (sanction.isPresent()) {
            return suspensions.refuse(request, response, SuspensionNotice.of(sanction.get()), account.getCorreo(), redirect);
        }
        AccountPrincipal user = AccountPrincipal.of(account);
        user.eraseCredentials();
        List<GrantedAuthority> authorities = new ArrayList<>(user.getAuthorities());
        authorities.add(FactorGrantedAuthority.withAuthority(factor).issuedAt(clock.instant()).build());
        Authentication authentication = UsernamePasswordAuthenticationToken.authenticated(user, null, authorities);
        String agent = request.getHeader("User-Agent");
        request.getSession().setAttribute(OpenSessions.AGENT, agent == null ? "" : agent.substring(0, Math.min(agent.length(), 300)));
        request.getSession().setAttribute(OpenSessions.ADDRESS, request.getRemoteAddr());
        String secondStepPage = secondStep.begin(request, response, authentication, redirect);
        if (secondStepPage != null) {
            return secondStepPage;
        }
        restore(request, response, authentication);
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_SUCCEEDED, null, account.getCorreo()));
        return LoginSuccessHandler.target(authentication, redirect);
    }

    /** Puts {@code authentication} in this request's and this session's security context. */
    public void restore(HttpServletRequest request, HttpServletResponse response, Authentication authentication) {
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(authentication);
        SecurityContextHolder.setContext(context);
        contexts.saveContext(context, request, response);
    }
}
