package com.example.identity.signin;

import java.io.Serial;
import java.io.Serializable;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;
import com.example.identity.mfa.MfaSettings;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.passkey.Passkeys;

/**
 * The login's second step (decisions §17). After a right password, an account with TOTP, or of a role in
 * {@code identity.mfa.required-roles}, is not logged in yet: {@link #begin} keeps the password's
 * authentication in the session as a {@link PendingLogin} and takes it out of the security context, so every
 * chain (pages, API, authorization server) sees the session as anonymous until {@link #complete} adds the
 * second factor and stores the authentication, under a new session id.
 *
 * <p>A pending login is a session like any other: it is indexed under the account's name
 * ({@link FindByIndexNameSessionRepository#PRINCIPAL_NAME_INDEX_NAME}), so everything that ends an account's
 * sessions (disabling it, a role change, a password reset or recovery, "cerrar las demás sesiones", a new second
 * factor) ends it too, on every instance; and {@link #complete} reads the account again, so a login finished
 * after the account was disabled or changed logs nobody in with what was captured before.
 */
@Component
public class SecondStep {

    /** The factor authority of a TOTP code or a recovery code (amr {@code otp}, {@code account/LoginFactors}). */
    public static final String TOTP_AUTHORITY = "FACTOR_TOTP";
    static final String PENDING = "identity.mfa.pending";
    /** Wrong codes allowed per password login; then the password must be typed again. */
    static final int MAX_FAILURES = 5;

    private final SecondFactors factors;
    private final Passkeys passkeys;
    private final MfaSettings settings;
    private final AccountService accounts;
    private final Clock clock;
    private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

    SecondStep(SecondFactors factors, Passkeys passkeys, MfaSettings settings, AccountService accounts, Clock clock) {
        this.factors = factors;
        this.passkeys = passkeys;
        this.settings = settings;
        this.accounts = accounts;
        this.clock = clock;
    }

    /** A password login waiting for its second factor, or for the enrolment of one. Small and serializable. */
    record PendingLogin(Authentication password, @Nullable String redirect, boolean enrol, int failures)
            implements Serializable {

        @Serial
        private static final long serialVersionUID = 1L;

        AccountPrincipal user() {
            return (AccountPrincipal) password.getPrincipal();
        }

        PendingLogin failed() {
            return new PendingLogin(password, redirect, enrol, failures + 1);
        }
    }

    /**
     * After a right password: when the account needs a second factor, the login waits for it.
     *
     * @return the page to send the browser to, or null when the password alone logs in
     */
    public @Nullable String begin(HttpServletRequest request, HttpServletResponse response, Authentication password,
            @Nullable String redirect) {
        if (!(password.getPrincipal() instanceof AccountPrincipal user)) {
            return null;
        }
        // TOTP asks for the step; so does a role that requires a second factor. A passkey is accepted as the
        // second factor (its button is on the step's page) but does not by itself make a password login ask
        // for one: a passkey alone has no recovery codes, and a lost device must not lock the account.
        boolean hasTotp = factors.hasTotp(user.id());
        if (!hasTotp && !settings.requiredFor(user.rol().value())) {
            return null;
        }
        boolean hasSecondFactor = hasTotp || passkeys.hasAny(user.correo());
        return waitFor(request, response, new PendingLogin(password, redirect, !hasSecondFactor, 0));
    }

    /**
     * An application demands a second factor ({@code acr_values=mfa}) from a session that has none: the
     * session's login waits for one, as after a password, and {@code redirect} (the authorization request)
     * follows it.
     *
     * @return the page to send the browser to
     */
    public String stepUp(HttpServletRequest request, HttpServletResponse response, Authentication current,
            @Nullable String redirect) {
        AccountPrincipal user = (AccountPrincipal) current.getPrincipal();
        boolean hasSecondFactor = factors.hasTotp(user.id()) || passkeys.hasAny(user.correo());
        return waitFor(request, response, new PendingLogin(current, redirect, !hasSecondFactor, 0));
    }

    /**
     * The session is anonymous until the second step is done, but stays indexed under the account's name, so
     * whatever ends the account's sessions ends this one too.
     */
    private String waitFor(HttpServletRequest request, HttpServletResponse response, PendingLogin pending) {
        HttpSession session = request.getSession();
        session.setAttribute(PENDING, pending);
        session.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, pending.user().getUsername());
        var empty = SecurityContextHolder.createEmptyContext();
        SecurityContextHolder.setContext(empty);
        contexts.saveContext(empty, request, response);
        return pending.enrol() ? Endpoints.SECOND_STEP_ENROL : Endpoints.SECOND_STEP;
    }

    /** The login waiting in this session, if any. */
    static @Nullable PendingLogin pending(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session != null && session.getAttribute(PENDING) instanceof PendingLogin pending ? pending : null;
    }

    static void remember(HttpServletRequest request, PendingLogin pending) {
        request.getSession().setAttribute(PENDING, pending);
    }

    static void forget(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.removeAttribute(PENDING);
            // from here the security context (or its absence) names the session's owner
            session.removeAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME);
        }
    }

    /**
     * The second factor was proved: the session is logged in, with the password's factor and the TOTP
     * factor (so the id_token's {@code amr} says {@code pwd otp mfa}), under a new session id. The account is
     * read again: its role and state are today's, not those of when the password was typed.
     *
     * @return false when the account can no longer log in (disabled or gone meanwhile): the login is forgotten
     */
    boolean complete(HttpServletRequest request, HttpServletResponse response, PendingLogin pending) {
        forget(request);
        AccountPrincipal user = accounts.findById(pending.user().id()).filter(UserAccount::isEnabled)
                .map(AccountPrincipal::of).orElse(null);
        if (user == null) {
            return false;
        }
        user.eraseCredentials();
        List<GrantedAuthority> authorities = new ArrayList<>(user.getAuthorities());
        pending.password().getAuthorities().stream().filter(FactorGrantedAuthority.class::isInstance)
                .forEach(authorities::add);
        authorities.add(FactorGrantedAuthority.withAuthority(TOTP_AUTHORITY).issuedAt(clock.instant()).build());
        login(request, response, user, authorities);
        return true;
    }

    /**
     * A passkey was used in this session: when it is the second factor of the login waiting here (same
     * account), that login's password factor is returned (and the login no longer waits), so the session
     * holds both (amr {@code pwd hwk mfa}); otherwise nothing (a passkey alone logs in).
     */
    public static List<GrantedAuthority> passwordFactorOfPendingLogin(HttpServletRequest request, String username) {
        PendingLogin pending = pending(request);
        if (pending == null) {
            return List.of();
        }
        forget(request);
        if (!pending.user().getUsername().equals(username)) {
            return List.of();
        }
        return pending.password().getAuthorities().stream()
                .filter(a -> FactorGrantedAuthority.PASSWORD_AUTHORITY.equals(a.getAuthority()))
                .map(a -> (GrantedAuthority) a).toList();
    }

    /** Whether the account has a passkey, for the second step's page. */
    boolean hasPasskey(AccountPrincipal user) {
        return passkeys.hasAny(user.correo());
    }

    /** Whether the account has TOTP, for the second step's page. */
    boolean hasTotp(AccountPrincipal user) {
        return factors.hasTotp(user.id());
    }

    /** A logged-in user proved a second factor just now (enrolment): the session's authentication gains it. */
    public void addFactor(HttpServletRequest request, HttpServletResponse response, Authentication current) {
        List<GrantedAuthority> authorities = new ArrayList<>(current.getAuthorities());
        authorities.removeIf(a -> TOTP_AUTHORITY.equals(a.getAuthority()));
        authorities.add(FactorGrantedAuthority.withAuthority(TOTP_AUTHORITY).issuedAt(clock.instant()).build());
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(current.getPrincipal(), null, authorities));
        SecurityContextHolder.setContext(context);
        contexts.saveContext(context, request, response);
    }

    private void login(HttpServletRequest request, HttpServletResponse response, AccountPrincipal user,
            List<GrantedAuthority> authorities) {
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(user, null, authorities));
        SecurityContextHolder.setContext(context);
        request.changeSessionId();
        contexts.saveContext(context, request, response);
    }

    /** Whether the account may turn its second factor off (not when its role requires one). */
    public boolean mayDisable(AccountPrincipal user) {
        return !settings.requiredFor(user.rol().value());
    }

    Instant now() {
        return clock.instant();
    }
}
