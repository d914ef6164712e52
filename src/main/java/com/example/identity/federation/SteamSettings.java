package com.example.identity.federation;

import java.net.URI;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.steam.*} (decisions §19): login with Steam, an OpenID 2.0 provider.
 *
 * @param enabled whether the login page shows "Entrar con Steam"; default false
 * @param endpoint Steam's OpenID 2.0 endpoint (the OP endpoint URL: where the browser is sent and where the
 *     answer is checked with {@code check_authentication}); default Steam's own. The accepted
 *     {@code openid.claimed_id} is derived from it: the same host (and port) and the endpoint's path with its last
 *     segment replaced by {@code id/}, then the 17 digits of a SteamID64, over http or https — for Steam's
 *     endpoint exactly {@code ^https?://steamcommunity.com/openid/id/(\d{17})$}
 */
@ConfigurationProperties("identity.steam")
public record SteamSettings(@DefaultValue("false") boolean enabled,
        @DefaultValue("https://steamcommunity.com/openid/login") URI endpoint) {

    /** The provider id of Steam's linked identities, and of its buttons. */
    static final String PROVIDER = "steam";
    static final String NAME = "Steam";

    public SteamSettings {
        String scheme = endpoint.getScheme();
        if (!("https".equals(scheme) || "http".equals(scheme)) || endpoint.getRawAuthority() == null
                || endpoint.getRawQuery() != null || endpoint.getRawFragment() != null) {
            throw new IllegalArgumentException("identity.steam.endpoint must be an http(s) URL without query: " + endpoint);
        }
    }

    /** The claimed identifiers this endpoint may assert; group 1 is the SteamID64. */
    Pattern claimedId() {
        String path = endpoint.getRawPath() == null ? "/" : endpoint.getRawPath();
        String base = path.substring(0, path.lastIndexOf('/') + 1) + "id/";
        return Pattern.compile("^https?://" + Pattern.quote(endpoint.getRawAuthority() + base) + "(\\d{17})$");
    }
}
