package com.example.identity.federation;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

import com.example.identity.Endpoints;
import com.example.identity.crypto.Secrets;

/**
 * Steam's answer at {@code /login/steam/vuelta} (decisions §19): accepted only in the session that started the
 * login and only once (the state of its {@code return_to}), checked by {@link SteamAssertions}, then the same path
 * as the other providers ({@link FederatedLoginSuccess#arrive}) with provider {@code steam} and the SteamID64 as
 * subject. Steam gives no address: a first login goes to the sign-up page, which asks for one (D38). A refused
 * answer returns to the login page with a Spanish notice ({@code ?federado=steam}), never an error page.
 */
@Controller
class SteamLoginController {

    private static final Logger log = LoggerFactory.getLogger(SteamLoginController.class);

    private final SteamSettings steam;
    private final SteamAssertions assertions;
    private final FederatedLoginSuccess arrival;

    SteamLoginController(SteamSettings steam, SteamAssertions assertions, FederatedLoginSuccess arrival) {
        this.steam = steam;
        this.assertions = assertions;
        this.arrival = arrival;
    }

    @GetMapping(Endpoints.STEAM_RETURN)
    void back(@RequestParam(required = false) String estado, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (!steam.enabled()) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        Object started = FederatedSession.take(request, FederatedSession.STEAM_STATE);
        if (!(started instanceof String state) || estado == null || !Secrets.digestMatches(Secrets.sha256Hex(state), estado)) {
            refuse(request, response, "no Steam login under way in this session", "steam");
            return;
        }
        var answer = SteamAssertions.openIdParameters(request.getParameterMap());
        String steamId;
        try {
            if (answer == null) {
                throw new SteamAssertions.Refused("an openid parameter given twice");
            }
            steamId = assertions.verify(answer, assertions.returnTo(state));
        }
        catch (SteamAssertions.Refused refused) {
            refuse(request, response, refused.getMessage(), refused.cancelled ? "cancelado" : "steam");
            return;
        }
        // a login: the session gets a new id, as Spring Security gives the other providers' logins
        request.changeSessionId();
        arrival.arrive(request, response, new ExternalIdentity(SteamSettings.PROVIDER, steamId, null, false, null),
                SteamSettings.NAME);
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, String why, String notice)
            throws IOException {
        log.warn("Steam login refused: {}", why);
        FederatedSession.take(request, FederatedSession.LINK_INTENT);
        FederatedSession.take(request, FederatedSession.REDIRECT);
        response.sendRedirect(Endpoints.LOGIN + "?federado=" + notice);
    }
}
