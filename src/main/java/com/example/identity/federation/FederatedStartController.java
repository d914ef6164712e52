package com.example.identity.federation;

import java.time.Clock;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.common.LocalRedirect;
import com.example.identity.crypto.Secrets;
import com.example.identity.guestaccount.GuestConversion;
import com.example.identity.mfa.RecentLogin;
import com.example.identity.signin.ReturnToApplication;

/**
 * The login page's "Entrar con …" buttons, the security page's "Vincular …", the deletion page's "Entrar de
 * nuevo con …" and the buttons of the page where a guest keeps its progress lead here
 * ({@code /login/federado/{registrationId}}): the checked authorization request to continue (login), the logged-in
 * account to link to (after a recent proof, mfa/RecentLogin), the logged-in account to prove again
 * ({@code reautenticar}: back to {@code /cuenta/eliminar}, issue 39) or, with {@code invitado}, the guest whose
 * progress the page of {@code /registro?invitado=} keeps (decisions §24) is kept in the session, then the
 * browser goes to Spring Security's {@code /oauth2/authorization/{registrationId}}, or, for {@code steam}, to
 * Steam's OpenID 2.0 endpoint with a state kept in the session ({@link SteamAssertions}).
 */
@Controller
class FederatedStartController {

    private final ObjectProvider<ClientRegistrationRepository> registrations;
    private final RegisteredClientRepository clients;
    private final RecentLogin recentLogin;
    private final SteamSettings steam;
    private final SteamAssertions steamAssertions;
    private final Clock clock;

    FederatedStartController(ObjectProvider<ClientRegistrationRepository> registrations,
            RegisteredClientRepository clients, RecentLogin recentLogin, SteamSettings steam,
            SteamAssertions steamAssertions, Clock clock) {
        this.clock = clock;
        this.steam = steam;
        this.steamAssertions = steamAssertions;
        this.registrations = registrations;
        this.clients = clients;
        this.recentLogin = recentLogin;
    }

    @GetMapping(Endpoints.FEDERATED_START + "{registrationId}")
    String start(@PathVariable String registrationId, @RequestParam(required = false) String redirect,
            @RequestParam(required = false) String vincular, @RequestParam(required = false) String reautenticar,
            @RequestParam(required = false) String invitado,
            Authentication authentication, HttpServletRequest request) {
        ClientRegistrationRepository repository = registrations.getIfAvailable();
        boolean isSteam = steam.enabled() && SteamSettings.PROVIDER.equals(registrationId);
        if (!isSteam && (repository == null || !registrationId.matches("[A-Za-z0-9_-]{1,64}")
                || repository.findByRegistrationId(registrationId) == null)) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        var session = request.getSession();
        session.removeAttribute(FederatedSession.LINK_INTENT);
        session.removeAttribute(FederatedSession.REDIRECT);
        session.removeAttribute(FederatedSession.STEAM_STATE);
        session.removeAttribute(FederatedSession.REAUTHENTICATION);
        session.removeAttribute(FederatedSession.GUEST);
        if (reautenticar != null) {
            if (authentication == null || !(authentication.getPrincipal() instanceof AccountPrincipal user)) {
                return "redirect:" + Endpoints.LOGIN;
            }
            session.setAttribute(FederatedSession.REAUTHENTICATION,
                    new FederatedSession.Reauthentication(user.id(), authentication));
        }
        else if (vincular != null) {
            if (authentication == null || !(authentication.getPrincipal() instanceof AccountPrincipal user)) {
                return "redirect:" + Endpoints.LOGIN;
            }
            if (!recentLogin.isRecent(request, authentication)) {
                return "redirect:" + Endpoints.ACCOUNT_SECURITY + "?vinculo=reciente";
            }
            session.setAttribute(FederatedSession.LINK_INTENT, new FederatedSession.LinkIntent(user.id(), authentication));
        }
        else if (invitado != null) {
            // a button of the page where a guest keeps its progress (decisions §24): this login converts that guest
            var guest = GuestConversion.of(request, clock.instant());
            if (guest.isEmpty()) {
                return "redirect:" + Endpoints.REGISTRATION + "?invitado=";
            }
            session.setAttribute(FederatedSession.GUEST, guest.get());
        }
        else {
            ReturnToApplication back = ReturnToApplication.of(LocalRedirect.orNull(redirect), clients);
            if (back != null) {
                session.setAttribute(FederatedSession.REDIRECT, back.url());
            }
        }
        if (isSteam) {
            // OpenID 2.0 (SteamAssertions): the state in return_to ties Steam's answer to this session, once
            String state = Secrets.randomUrlSafe(32);
            session.setAttribute(FederatedSession.STEAM_STATE, state);
            return "redirect:" + steamAssertions.authenticationRequest(state);
        }
        return "redirect:/oauth2/authorization/" + registrationId;
    }
}
