package com.example.identity.federation;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountService;
import com.example.identity.account.LoginFactors;
import com.example.identity.account.UserAccount;
import com.example.identity.registration.IdentitySignUp;
import com.example.identity.signin.AccountLogin;

/**
 * After another provider's login (decisions §19), Spring Security's {@code OAuth2AuthenticationToken} is
 * replaced by this service's account, so that {@code sub} stays {@code user:<id>} and everything downstream
 * (second step, authorization endpoint) sees a login like any other:
 * <ol>
 * <li>a link asked for from {@code /cuenta/seguridad} links the identity to the logged-in account;</li>
 * <li>a new proof asked for by {@code /cuenta/eliminar} logs the logged-in account in again, now, when the
 *     identity is one of its links, and goes back there (issue 39); else the session stays as it was;</li>
 * <li>a login started on the page where a guest keeps its progress converts that guest (decisions §24,
 *     {@link FederatedGuestConversion});</li>
 * <li>a linked identity logs its account in;</li>
 * <li>an identity with no address (Steam's, always) goes to the sign-up page, which asks for one and mails the
 *     link that creates the account with this identity linked (registration/IdentitySignUp, D38); refused when
 *     sign-up is off;</li>
 * <li>an address that has an account links nothing by itself: the person proves that account first
 *     ({@code /login/vincular});</li>
 * <li>an address the provider does not say it verified makes no account (D44, the "nOAuth" pattern: whoever
 *     controls such a provider account could name anyone's address, and keep the account its owner would later
 *     recover): the sign-up page, with that address typed, mails the link that proves it and creates the account
 *     with this identity linked, as for a provider without address; refused when sign-up is off;</li>
 * <li>otherwise an account is created (role {@code user}, the address verified, as the provider asserts) and
 *     the identity linked to it, with the birth date (decisions §27): the provider's {@code birthdate} of someone
 *     over the consent age, or the one asked once at {@code /login/fecha-nacimiento} before the account exists
 *     ({@link FirstLogins}).</li>
 * </ol>
 */
@Component
final class FederatedLoginSuccess implements AuthenticationSuccessHandler {

    private final LinkedIdentities links;
    private final AccountService accounts;
    private final FederatedSession session;
    private final AccountLogin login;
    private final FederationSettings settings;
    private final ObjectProvider<ClientRegistrationRepository> registrations;
    private final FirstLogins firstLogins;
    private final FederatedGuestConversion guests;

    FederatedLoginSuccess(LinkedIdentities links, AccountService accounts, FederatedSession session, AccountLogin login,
            FederationSettings settings, ObjectProvider<ClientRegistrationRepository> registrations,
            FirstLogins firstLogins,
            FederatedGuestConversion guests) {
        this.firstLogins = firstLogins;
        this.guests = guests;
        this.links = links;
        this.accounts = accounts;
        this.session = session;
        this.login = login;
        this.settings = settings;
        this.registrations = registrations;
    }

    @Override
    public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
            Authentication authentication) throws IOException {
        ExternalIdentity identity = ExternalIdentity.of((OAuth2AuthenticationToken) authentication, settings);
        ClientRegistrationRepository repository = registrations.getIfAvailable();
        ClientRegistration registration = repository == null ? null : repository.findByRegistrationId(identity.provider());
        arrive(request, response, identity, registration == null ? identity.provider() : registration.getClientName());
    }

    /** What every provider's login leads to, once its answer is checked (OAuth 2.0 here, Steam's OpenID 2.0). */
    void arrive(HttpServletRequest request, HttpServletResponse response, ExternalIdentity identity,
            String providerName) throws IOException {
        IdentitySignUp signUp = firstLogins.signUp();
        String redirect = FederatedSession.take(request, FederatedSession.REDIRECT) instanceof String r ? r : null;
        if (FederatedSession.take(request, FederatedSession.LINK_INTENT) instanceof FederatedSession.LinkIntent intent) {
            boolean linked = links.link(intent.userId(), identity.provider(), identity.subject());
            boolean mine = linked || links.userOf(identity.provider(), identity.subject()).orElse(-1L) == intent.userId();
            login.restore(request, response, intent.authentication());
            response.sendRedirect(Endpoints.ACCOUNT_SECURITY + "?vinculo=" + (mine ? "nuevo" : "ocupado"));
            return;
        }
        if (FederatedSession.take(request, FederatedSession.GUEST) instanceof Long guestId) {
            guests.arrive(request, response, identity, providerName, guestId, firstLogins);
            return;
        }
        var linkedUser = links.userOf(identity.provider(), identity.subject());
        if (FederatedSession.take(request, FederatedSession.REAUTHENTICATION)
                instanceof FederatedSession.Reauthentication again) {
            UserAccount account = linkedUser.filter(id -> id == again.userId()).flatMap(accounts::findById)
                    .filter(UserAccount::isEnabled).orElse(null);
            if (account == null) {
                login.restore(request, response, again.authentication());
                response.sendRedirect(Endpoints.ACCOUNT_DELETE + "?reautenticacion=otra");
                return;
            }
            response.sendRedirect(login.login(request, response, account, LoginFactors.FEDERATED_AUTHORITY,
                    Endpoints.ACCOUNT_DELETE));
            return;
        }
        if (linkedUser.isPresent()) {
            UserAccount account = accounts.findById(linkedUser.get()).filter(UserAccount::isEnabled).orElse(null);
            if (account == null) {
                refuse(request, response, "desactivada");
                return;
            }
            if (identity.emailVerified() && account.getCorreo().equalsIgnoreCase(identity.email())) {
                accounts.markEmailVerified(account.getId());
                account = accounts.findById(account.getId()).orElseThrow();
            }
            response.sendRedirect(login.login(request, response, account, LoginFactors.FEDERATED_AUTHORITY, redirect));
            return;
        }
        if (identity.email() == null || !AccountService.isValidEmail(identity.email())) {
            session.anonymous(request, response);
            if (!signUp.offered()) {
                refuse(request, response, "sin-correo");
                return;
            }
            response.sendRedirect(signUp.begin(request, new IdentitySignUp.Identity(identity.provider(), providerName,
                    identity.subject(), identity.name(), redirect)));
            return;
        }
        var existing = accounts.findByEmail(identity.email());
        if (existing.isPresent()) {
            request.getSession().setAttribute(FederatedSession.PENDING_LINK, new FederatedSession.PendingLink(
                    identity.provider(), providerName, identity.subject(), existing.get().getId(), existing.get().getCorreo(), redirect));
            session.anonymous(request, response);
            response.sendRedirect(Endpoints.FEDERATED_LINK);
            return;
        }
        if (!identity.emailVerified()) {
            session.anonymous(request, response);
            if (!signUp.offered()) {
                refuse(request, response, "sin-verificar");
                return;
            }
            response.sendRedirect(signUp.begin(request, new IdentitySignUp.Identity(identity.provider(), providerName,
                    identity.subject(), identity.name(), redirect, identity.email())));
            return;
        }
        // a new account: with the birth date (decisions §27), the provider's or asked once before it exists
        firstLogins.begin(request, response, new FederatedSession.PendingAccount(identity.provider(), providerName,
                identity.subject(), identity.email(), identity.name(), redirect), identity.birthdate());
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, String why) throws IOException {
        session.anonymous(request, response);
        response.sendRedirect(Endpoints.LOGIN + "?federado=" + why);
    }
}
