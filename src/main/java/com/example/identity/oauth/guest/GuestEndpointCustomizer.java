package com.example.identity.oauth.guest;

import java.time.Duration;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.stereotype.Component;

import com.example.identity.abuse.RateLimits;
import com.example.identity.guestaccount.GuestSettings;
import com.example.identity.keys.SigningKeys;
import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.web.ChainCustomizer;

/**
 * The guests' endpoint ({@code /oauth/invitado.php}, decisions §24): a game's first start makes a guest player and
 * gets its tokens with one call. Its steps are {@link GuestEndpointFilter}'s, the guest and its tokens
 * {@link GuestTokens}'; the per-address budget is abuse/RateLimits' {@linkplain RateLimits#sharedBudget shared
 * budget} {@value GuestEndpointFilter#BUDGET}, {@code identity.guests.per-address-hour} an hour. Its filter answers
 * before the CSRF filter (a program's POST without a session, like the token endpoint's) and after the
 * authorization server's context (the issuer of its id_tokens).
 */
@Component
public class GuestEndpointCustomizer implements ChainCustomizer {

    private final GuestEndpointFilter filter;

    GuestEndpointCustomizer(RegisteredClientRepository clients, SigningKeys signingKeys, RateLimits limits,
            GuestSettings settings, GuestTokens tokens, TokenResponses responses) {
        this.filter = new GuestEndpointFilter(clients, signingKeys,
                limits.sharedBudget(GuestEndpointFilter.BUDGET, settings.perAddressHour(), Duration.ofHours(1)), tokens,
                responses);
    }

    @Override
    public void customize(HttpSecurity http) {
        http.addFilterBefore(filter, CsrfFilter.class);
    }
}
