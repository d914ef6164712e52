package com.example.identity.federation;

import java.io.Serial;
import java.io.Serializable;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

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
import com.example.identity.account.LoginFactors;
import com.example.identity.account.UserAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.session.OpenSessions;
import com.example.identity.signin.LoginSuccessHandler;
import com.example.identity.signin.SecondStep;

/**
 * What a federated login keeps in the session (shared by every instance, session/) between its steps, and
 * how it logs an account in: as the login form does (the session id was already changed by Spring Security),
 * with the provider's factor ({@link LoginFactors#FEDERATED_AUTHORITY}), then the second step when the account
 * has one or its role requires one (signin/SecondStep), then the authorization request that led to the login.
 */
@Component
class FederatedSession {

    /** The checked authorization request to continue after the provider's login. */
    static final String REDIRECT = "identity.federation.redirect";
    /** A logged-in person asked to link another provider ({@link LinkIntent}). */
    static final String LINK_INTENT = "identity.federation.link-intent";
    /** An identity waiting for the proof of the account that has its address ({@link PendingLink}). */
    static final String PENDING_LINK = "identity.federation.pending-link";

    /** The logged-in person who asked to link another provider, and their session's authentication. */
    record LinkIntent(long userId, Authentication authentication) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /** An identity whose address belongs to account {@code userId}: linked once the person proves that account. */
    record PendingLink(String provider, String providerName, String subject, long userId, String correo,
            @Nullable String redirect) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    private final SecondStep secondStep;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

    FederatedSession(SecondStep secondStep, ApplicationEventPublisher events, Clock clock) {
        this.secondStep = secondStep;
        this.events = events;
        this.clock = clock;
    }

    static @Nullable Object take(HttpServletRequest request, String name) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            return null;
        }
        Object value = session.getAttribute(name);
        session.removeAttribute(name);
        return value;
    }

    static @Nullable Object peek(HttpServletRequest request, String name) {
        HttpSession session = request.getSession(false);
        return session == null ? null : session.getAttribute(name);
    }

    /** The session is nobody's (the provider's login alone logs nobody in here). */
    void anonymous(HttpServletRequest request, HttpServletResponse response) {
        var empty = SecurityContextHolder.createEmptyContext();
        SecurityContextHolder.setContext(empty);
        contexts.saveContext(empty, request, response);
    }

    /** Puts {@code authentication} back as the session's (a link added from /cuenta/seguridad). */
    void restore(HttpServletRequest request, HttpServletResponse response, Authentication authentication) {
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(authentication);
        SecurityContextHolder.setContext(context);
        contexts.saveContext(context, request, response);
    }

    /**
     * Logs {@code account} in with the given factor.
     *
     * @return where to send the browser: the second step, the authorization request, or home
     */
    String login(HttpServletRequest request, HttpServletResponse response, UserAccount account, String factor,
            @Nullable String redirect) {
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
}
