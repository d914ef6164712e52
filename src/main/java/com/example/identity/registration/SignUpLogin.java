package com.example.identity.registration;

import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.stereotype.Component;

import com.example.identity.account.UserAccount;
import com.example.identity.signin.AccountLogin;
import com.example.identity.signin.Suspensions;

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

    private final AccountLogin login;
    private final Suspensions suspensions;

    SignUpLogin(AccountLogin login, Suspensions suspensions) {
        this.login = login;
        this.suspensions = suspensions;
    }

    /**
     * A guest about to keep its progress (decisions §24) whom a global sanction keeps out (§26): not converted, the
     * login page says why and until when.
     *
     * @return that page, or empty when no sanction keeps the guest out
     */
    Optional<String> refusalOf(HttpServletRequest request, HttpServletResponse response, long guestId) {
        return suspensions.refusal(request, response, guestId, null);
    }

    /**
     * Logs {@code account} in this browser.
     *
     * @param continueTo the checked authorization request to go on with, or null
     * @return where to send the browser: the second step, the authorization request, or the home page
     */
    String login(HttpServletRequest request, HttpServletResponse response, UserAccount account,
            @Nullable String continueTo) {
        // whatever session this browser had (anonymous: the link may be opened anywhere) gets a new id
        request.getSession(true);
        request.changeSessionId();
        return login.login(request, response, account, FactorGrantedAuthority.OTT_AUTHORITY, continueTo);
    }
}
