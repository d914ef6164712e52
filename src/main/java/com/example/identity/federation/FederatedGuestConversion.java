package com.example.identity.federation;

import java.io.IOException;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountService;
import com.example.identity.account.GuestAccounts;
import com.example.identity.account.LoginFactors;
import com.example.identity.account.UserAccount;
import com.example.identity.guestaccount.GuestConversion;
import com.example.identity.guestaccount.Guests;
import com.example.identity.minors.ParentalConsents;
import com.example.identity.registration.IdentitySignUp;
import com.example.identity.signin.AccountLogin;

/**
 * "Entrar con …" on the page where a guest keeps its progress (decisions §19 and §24): the provider's login turns
 * that guest into a full account, the same id, with the provider's address and its identity linked, and logs it in.
 * Nothing is ever merged:
 * <ol>
 * <li>an identity already linked to an account: the page says so and offers to log in to that account (its provider's
 *     button logs in there); the guest stays a guest;</li>
 * <li>an identity without an address (Steam's), or with one its provider does not say it verified: the sign-up form
 *     asks for one, as for any first login without an address (registration/IdentitySignUp), and its mailed link
 *     converts the guest and links the identity;</li>
 * <li>an address that has an account: the page says so and offers to log in to it; the guest stays a guest;</li>
 * <li>otherwise the guest is converted (with the address the provider verified) and logged in, once the birth date
 *     is known (decisions §27: the provider's of an adult, or asked at {@code /login/fecha-nacimiento},
 *     {@link FirstLogins}); a child's conversion waits for the parent like any child's account.</li>
 * </ol>
 */
@Component
class FederatedGuestConversion {

    private final Guests guests;
    private final LinkedIdentities links;
    private final AccountService accounts;
    private final FederatedSession session;
    private final AccountLogin login;
    private final ParentalConsents minors;

    FederatedGuestConversion(Guests guests, LinkedIdentities links, AccountService accounts, FederatedSession session,
            AccountLogin login, ParentalConsents minors) {
        this.minors = minors;
        this.guests = guests;
        this.links = links;
        this.accounts = accounts;
        this.session = session;
        this.login = login;
    }

    /** The provider's login of a guest's conversion: one of the four ends above. */
    void arrive(HttpServletRequest request, HttpServletResponse response, ExternalIdentity identity, String providerName,
            long guestId, FirstLogins firstLogins) throws IOException {
        IdentitySignUp signUp = firstLogins.signUp();
        if (links.userOf(identity.provider(), identity.subject()).isPresent()) {
            response.sendRedirect(taken(request, response, "identidad", identity.provider()));
            return;
        }
        // an address the provider does not vouch for is proved by the sign-up's link first: no account becomes a
        // stranger's address by a provider that let someone claim it (the nOAuth pattern)
        if (identity.email() == null || !AccountService.isValidEmail(identity.email()) || !identity.emailVerified()) {
            session.anonymous(request, response);
            if (!signUp.offered()) {
                response.sendRedirect(Endpoints.LOGIN + "?federado=sin-correo");
                return;
            }
            // the conversion stays in the session: the form's link converts the guest and links the identity (an
            // address the provider gave without verifying it is typed in already, as for any first login: D44)
            boolean unverified = identity.email() != null && AccountService.isValidEmail(identity.email());
            response.sendRedirect(signUp.begin(request, new IdentitySignUp.Identity(identity.provider(), providerName,
                    identity.subject(), identity.name(), null, unverified ? identity.email() : null)));
            return;
        }
        if (accounts.findByEmail(identity.email()).isPresent()) {
            response.sendRedirect(taken(request, response, "correo", null));
            return;
        }
        // the birth date first (decisions §27): the provider's of an adult, or asked once before the conversion
        firstLogins.begin(request, response, new FederatedSession.PendingAccount(identity.provider(), providerName,
                identity.subject(), identity.email(), identity.name(), null, guestId), identity.birthdate());
    }

    /**
     * Converts the guest of {@code pending} with the birth date (and, under the consent age, the parent's address) and
     * logs it in; nothing when the address or the identity became someone's, or the guest is gone.
     *
     * @return where to send the browser
     */
    String convert(HttpServletRequest request, HttpServletResponse response, FederatedSession.PendingAccount pending,
            ParentalConsents.SignUpAge age) {
        long guestId = pending.guestId();
        Optional<UserAccount> converted;
        try {
            converted = guests.convertByProvider(guestId, pending.name(), pending.email(), true, pending.provider(),
                    user -> links.link(user, pending.provider(), pending.subject()));
        }
        catch (AccountService.EmailAlreadyUsedException raced) {
            return taken(request, response, "correo", null);
        }
        catch (GuestAccounts.NotAGuestException gone) {
            // converted or deleted meanwhile: the page of a link that no longer works
            GuestConversion.forget(request);
            session.anonymous(request, response);
            return Endpoints.REGISTRATION + "?invitado=";
        }
        if (converted.isEmpty()) {
            return taken(request, response, "identidad", pending.provider());
        }
        minors.accountMade(converted.get(), age.birth(), age.tutor());
        GuestConversion.forget(request);
        String next = login.login(request, response, converted.get(), LoginFactors.FEDERATED_AUTHORITY, null);
        return Endpoints.HOME.equals(next) ? Endpoints.HOME + "?invitado=guardado" : next;
    }

    /** Nothing merged: the guest stays a guest, this session logs nobody in, the page says which was someone's. */
    private String taken(HttpServletRequest request, HttpServletResponse response, String what, String provider) {
        GuestConversion.forget(request);
        session.anonymous(request, response);
        var page = UriComponentsBuilder.fromPath(Endpoints.REGISTRATION).queryParam("ocupado", what);
        if (provider != null) {
            page.queryParam("proveedor", provider);
        }
        return page.build().encode().toUriString();
    }
}
