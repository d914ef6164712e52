package com.example.identity.abuse;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.common.LocalRedirect;

/**
 * Guards every form that checks a password: the login, and each form where a logged-in user confirms a change
 * with the current password ({@link #PASSWORD_FORMS}). Runs before the password is checked and takes the
 * attempt's unit of the throttle then ({@link LoginThrottle#tryAcquire}), kept as the request's
 * {@link LoginThrottle#attemptOf} until the request ends, so simultaneous guesses cannot all pass before the
 * first is counted. A throttled attempt goes back to its page with {@code bloqueado} ("try later"), the same for
 * every e-mail address, and no password hashing is spent on it. A wrong password at any of them is a failed
 * login of that account from that address ({@code account/PasswordCheckFailed}), so they share one budget with
 * the login and with the second step's codes (signin/SecondStepController, which takes its own attempt). An
 * attempt that the request settled neither way (a right password before the second step, or no password
 * checked at all) is given back when the request ends.
 */
public class LoginThrottleFilter extends OncePerRequestFilter {


    /**
     * The forms of a logged-in user that check the account's current password, and the page a refused
     * attempt is sent back to (each shows "Demasiados intentos fallidos..." for {@code ?bloqueado=1}).
     */
    static final Map<String, String> PASSWORD_FORMS = Map.of(
            Endpoints.ACCOUNT_PASSWORD, Endpoints.ACCOUNT_PASSWORD,
            Endpoints.ACCOUNT_EMAIL, Endpoints.ACCOUNT,
            Endpoints.ACCOUNT_SECURITY_CONFIRM, Endpoints.ACCOUNT_SECURITY,
            Endpoints.ACCOUNT_TOTP, Endpoints.ACCOUNT_TOTP,
            Endpoints.ACCOUNT_TOTP_CODES, Endpoints.ACCOUNT_SECURITY,
            Endpoints.ACCOUNT_TOTP_DISABLE, Endpoints.ACCOUNT_SECURITY,
            Endpoints.ACCOUNT_DELETE, Endpoints.ACCOUNT_DELETE);

    private final LoginThrottle throttle;

    public LoginThrottleFilter(LoginThrottle throttle) {
        this.throttle = throttle;
    }

    private static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = path(request);
        return !"POST".equals(request.getMethod()) || !(Endpoints.LOGIN.equals(path) || PASSWORD_FORMS.containsKey(path));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String page = PASSWORD_FORMS.get(path(request));
        String username;
        if (page != null) {
            // the current-password check of a logged-in user counts as a login of that account from here
            Authentication user = SecurityContextHolder.getContext().getAuthentication();
            if (!(user != null && user.getPrincipal() instanceof AccountPrincipal account)) {
                chain.doFilter(request, response);
                return;
            }
            username = account.getUsername();
        }
        else {
            page = Endpoints.LOGIN;
            username = request.getParameter("username");
        }
        LoginThrottle.Attempt attempt = throttle.tryAcquire(username, LoginThrottle.addressOf(request));
        if (attempt == null) {
            // counted, not one audit row each: LoginThrottle writes one row per account with the count
            response.sendRedirect(request.getContextPath()
                    + LocalRedirect.pageWithRedirect(page, "bloqueado", request.getParameter("redirect")));
            return;
        }
        request.setAttribute(LoginThrottle.ATTEMPT, attempt);
        try (attempt) {
            chain.doFilter(request, response);
        }
        finally {
            request.removeAttribute(LoginThrottle.ATTEMPT);
        }
    }
}
