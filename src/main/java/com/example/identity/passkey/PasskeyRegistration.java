package com.example.identity.passkey;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.mfa.RecentLogin;
import com.example.identity.account.SecondFactorAdded;

/**
 * In front of Spring Security's passkey registration ({@code POST /webauthn/register/options} and
 * {@code POST /webauthn/register}), which asks only for a logged-in session: a passkey is a new way into the
 * account, so it is added only by a session that proved who it is recently ({@link RecentLogin}: its login,
 * or the password typed again at {@code /cuenta/seguridad}, within {@code identity.mfa.recent-login}); an
 * older one is answered 403 {@code {"error":"..."}} and the page asks for the password. A passkey added ends
 * every other session of the account, as a password change does (it may be an intruder's), and the address is
 * told ({@link SecondFactorAdded}); the addition is audited by {@link AuditedCredentials}.
 */
public final class PasskeyRegistration extends OncePerRequestFilter {

    static final String NOT_RECENT = "{\"error\":\"Confirma tu contraseña para añadir una llave de acceso.\"}";

    private final RecentLogin recentLogin;
    private final Passkeys passkeys;
    private final ApplicationEventPublisher events;

    public PasskeyRegistration(RecentLogin recentLogin, Passkeys passkeys, ApplicationEventPublisher events) {
        this.recentLogin = recentLogin;
        this.passkeys = passkeys;
        this.events = events;
    }

    private static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = path(request);
        return !"POST".equals(request.getMethod()) || !(Endpoints.PASSKEY_REGISTER_OPTIONS.equals(path) || Endpoints.PASSKEY_REGISTER.equals(path));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !(authentication.getPrincipal() instanceof AccountPrincipal user)) {
            chain.doFilter(request, response); // Spring Security's filters refuse a visitor
            return;
        }
        if (!recentLogin.isRecent(request, authentication)) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            response.setHeader("Cache-Control", "no-store");
            response.getWriter().write(NOT_RECENT);
            return;
        }
        if (!Endpoints.PASSKEY_REGISTER.equals(path(request))) {
            chain.doFilter(request, response);
            return;
        }
        int before = passkeys.of(user.correo()).size();
        chain.doFilter(request, response);
        if (passkeys.of(user.correo()).size() > before) {
            // ends the other sessions and tells the address (mfa/SecondFactorAddedNotice)
            events.publishEvent(new SecondFactorAdded(user.id(), user.correo(), SecondFactorAdded.Factor.PASSKEY,
                    request.getSession().getId(), request.getRemoteAddr()));
        }
    }
}
