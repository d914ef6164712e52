package com.example.identity.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.guestaccount.Guests;

/**
 * {@code POST /api/invitados/convertir.php} (decisions §24): a guest's game asks for the address where the player
 * keeps the progress by making an account, with the guest's access token ({@code Authorization: Bearer}). The
 * answer is {@code {"ok":true,"url":"{issuer}/registro?invitado=<code>","expires_in":600}}: a single-use code,
 * valid ten minutes, that the game opens in the player's browser. Without a bearer token 401
 * {@code Falta token Bearer}; a game server's own token (no player) 403 {@code Permiso denegado}; the token of an
 * account that is not a guest 409 {@code La cuenta no es de invitado}.
 */
@RestController
class GuestConversionController {

    static final String NOT_A_GUEST = "La cuenta no es de invitado";

    private final Guests guests;
    private final String issuer;

    GuestConversionController(Guests guests, IdentityProperties properties) {
        this.guests = guests;
        this.issuer = properties.issuerUrl();
    }

    @PostMapping(Endpoints.API_GUEST_CONVERSION)
    ResponseEntity<Conversion> convert(Authentication caller) {
        // the caller of /api/userinfo.php: a player's token, the same refusals
        switch (UserInfoEndpoint.verdict(caller)) {
            case NO_TOKEN -> throw ApiProblem.unauthorized(UserInfoEndpoint.MISSING, "Bearer");
            case NO_PLAYER -> throw ApiProblem.forbidden(ApiSecurityConfig.DENIED);
            case PROFILE -> {
            }
        }
        String code = guests.conversionCode(((BearerTokenAuthentication) caller).owner().userId())
                .orElseThrow(() -> ApiProblem.conflict(NOT_A_GUEST));
        return ApiJson.ok(new Conversion(true, issuer + Endpoints.REGISTRATION + "?invitado=" + code,
                Guests.CONVERSION_TTL.toSeconds()));
    }

    @JsonPropertyOrder({ "ok", "url", "expires_in" })
    record Conversion(boolean ok, String url, @JsonProperty("expires_in") long expiresIn) {
    }
}
