package com.example.identity.federation;

import java.io.IOException;
import java.time.LocalDate;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountService;
import com.example.identity.account.LoginFactors;
import com.example.identity.account.UserAccount;
import com.example.identity.minors.ParentalConsents;
import com.example.identity.minors.RefusedField;
import com.example.identity.registration.IdentitySignUp;
import com.example.identity.signin.AccountLogin;

/**
 * The first login with another provider that makes an account (decisions §19) and the birth date it needs (§27): a
 * provider that asserted OpenID Connect's {@code birthdate} of someone over the consent age gets the account at once;
 * otherwise the account waits in the session ({@link FederatedSession.PendingAccount}) for {@code /login/fecha-nacimiento}
 * ({@link BirthDateController}), asked once, before the account exists. Also the sign-up that a login without a usable
 * address starts ({@link #signUp}, registration/'s).
 */
@Component
class FirstLogins {

    private final AccountService accounts;
    private final LinkedIdentities links;
    private final AccountLogin login;
    private final FederatedSession session;
    private final ParentalConsents minors;
    private final IdentitySignUp signUp;
    private final FederatedGuestConversion guests;

    FirstLogins(AccountService accounts, LinkedIdentities links, AccountLogin login, FederatedSession session,
            ParentalConsents minors, IdentitySignUp signUp, FederatedGuestConversion guests) {
        this.guests = guests;
        this.accounts = accounts;
        this.links = links;
        this.login = login;
        this.session = session;
        this.minors = minors;
        this.signUp = signUp;
    }

    /** registration/'s sign-up, for a login that gave no usable address. */
    IdentitySignUp signUp() {
        return signUp;
    }

    /**
     * A verified address that no account has: the account now when the provider's {@code birthdate} is a date of
     * someone over the consent age, else the birth date's page first (the session is nobody's meanwhile).
     */
    void begin(HttpServletRequest request, HttpServletResponse response, FederatedSession.PendingAccount pending,
            @Nullable String birthdate) throws IOException {
        ParentalConsents.SignUpAge asserted = null;
        try {
            asserted = birthdate == null ? null : minors.checkSignUp(birthdate, null, pending.email());
        }
        catch (RefusedField unusableOrUnderTheConsentAge) {
            // no date, one the rule refuses (0000-MM-DD), or a child's, whose parent's address must be asked
        }
        if (asserted != null) {
            response.sendRedirect(create(request, response, pending, asserted.birth(), null));
            return;
        }
        session.anonymous(request, response);
        request.getSession().setAttribute(FederatedSession.PENDING_ACCOUNT, pending);
        response.sendRedirect(Endpoints.FEDERATED_BIRTH_DATE);
    }

    /**
     * Makes the account of {@code pending} (address proved, the identity linked, the birth date kept and, under the
     * consent age, the parent's consent asked) and logs it in.
     *
     * @return where to send the browser, or the login page's refusal when the address was taken meanwhile
     */
    String create(HttpServletRequest request, HttpServletResponse response, FederatedSession.PendingAccount pending,
            LocalDate birth, @Nullable String tutor) {
        if (pending.guestId() != null) {
            // a guest keeping its progress (decisions §24) with this identity: the same account, converted
            return guests.convert(request, response, pending, new ParentalConsents.SignUpAge(birth, tutor));
        }
        UserAccount created;
        try {
            created = accounts.createFederated(pending.name(), pending.email(), true, pending.provider());
        }
        catch (AccountService.EmailAlreadyUsedException raced) {
            session.anonymous(request, response);
            return Endpoints.LOGIN + "?federado=error";
        }
        links.link(created.getId(), pending.provider(), pending.subject());
        minors.accountMade(created, birth, tutor);
        return login.login(request, response, created, LoginFactors.FEDERATED_AUTHORITY, pending.redirect());
    }
}
