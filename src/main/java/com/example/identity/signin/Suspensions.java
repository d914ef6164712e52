package com.example.identity.signin;

import java.io.Serial;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.authentication.AccountStatusException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.LocalRedirect;
import com.example.identity.sanctions.Sanction;
import com.example.identity.sanctions.Sanctions;
import com.example.identity.sanctions.SuspensionNotice;

/**
 * Every login path refuses a person whom a global sanction keeps out (decisions §26), once they have proved who they
 * are, never before (so the reason is shown only to the account's owner): the password form (after the hash,
 * {@link #afterPassword}), a passkey ({@link PasskeyLogin}), another provider, a sign-up link and the password that
 * links an identity ({@link AccountLogin}). The session stays anonymous; it carries the {@link SuspensionNotice} to the
 * login page ({@code /login/?suspendida=1}), which shows "Tu cuenta está suspendida" with the end date (or "de forma
 * permanente") and the reason, in the page's language. The attempt is in the audit trail as a failed login.
 */
@Component
public class Suspensions {

    /** The session attribute that carries the notice to the login page, read once. */
    static final String NOTICE = "identity.signin.suspended";
    /** The login page's flag. */
    static final String FLAG = "suspendida";

    private final Sanctions sanctions;
    private final ApplicationEventPublisher events;
    private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

    Suspensions(Sanctions sanctions, ApplicationEventPublisher events) {
        this.sanctions = sanctions;
        this.events = events;
    }

    /** Thrown after a right password of a sanctioned account: the failure handler shows the notice. */
    static final class SuspendedAccountException extends AccountStatusException {

        @Serial
        private static final long serialVersionUID = 1L;

        private final SuspensionNotice notice;

        SuspendedAccountException(SuspensionNotice notice) {
            super("Cuenta suspendida");
            this.notice = notice;
        }

        SuspensionNotice notice() {
            return notice;
        }
    }

    /** The login form's check after the password hash: a sanctioned account is refused. */
    void afterPassword(UserDetails user) {
        if (user instanceof AccountPrincipal account) {
            sanctions.global(account.id()).ifPresent(s -> {
                throw new SuspendedAccountException(SuspensionNotice.of(s));
            });
        }
    }

    /** The global sanction in force for {@code userId}, if any. */
    Optional<Sanction> of(long userId) {
        return sanctions.global(userId);
    }

    /**
     * Refuses the login: no authentication in the request or the session, the notice kept for the login page, the
     * attempt audited.
     *
     * @return the login page that shows the notice, keeping {@code redirect}
     */
    String refuse(HttpServletRequest request, HttpServletResponse response, SuspensionNotice notice, String account,
            @Nullable String redirect) {
        var empty = SecurityContextHolder.createEmptyContext();
        SecurityContextHolder.setContext(empty);
        contexts.saveContext(empty, request, response);
        request.getSession().setAttribute(NOTICE, notice);
        events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, "cuenta suspendida", account));
        return LocalRedirect.pageWithRedirect(Endpoints.LOGIN, FLAG, redirect);
    }

    /**
     * A way into account {@code userId} that is not a login (a guest keeping its progress, decisions §24): refused as a
     * login is when a global sanction keeps the account out.
     *
     * @return the login page that shows the notice, or empty when no sanction keeps the account out
     */
    public Optional<String> refusal(HttpServletRequest request, HttpServletResponse response, long userId,
            @Nullable String redirect) {
        return sanctions.global(userId).map(s -> refuse(request, response, SuspensionNotice.of(s), "usuario #" + userId,
                redirect));
    }

    /** The notice a refused login left in this session, removed as it is read; null when there is none. */
    static @Nullable SuspensionNotice take(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session == null || !(session.getAttribute(NOTICE) instanceof SuspensionNotice notice)) {
            return null;
        }
        session.removeAttribute(NOTICE);
        return notice;
    }
}
