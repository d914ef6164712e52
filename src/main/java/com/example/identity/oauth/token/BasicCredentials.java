package com.example.identity.oauth.token;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.util.UriUtils;

/**
 * A client's HTTP Basic credentials (RFC 6749 §2.3.1: {@code Basic base64(urlencode(client_id) ":"
 * urlencode(client_secret))}), read the same way at every endpoint where a client authenticates.
 */
record BasicCredentials(String clientId, String secret) {

    /** A Basic header that cannot be read: it counts as Basic, and is refused in each endpoint's order. */
    static final BasicCredentials MALFORMED = new BasicCredentials(null, null);

    /** The request's Basic credentials: null without a Basic header, {@link #MALFORMED} when it cannot be read. */
    static @Nullable BasicCredentials of(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon <= 0) {
                return MALFORMED;
            }
            return new BasicCredentials(UriUtils.decode(decoded.substring(0, colon), StandardCharsets.UTF_8),
                    UriUtils.decode(decoded.substring(colon + 1), StandardCharsets.UTF_8));
        }
        catch (IllegalArgumentException e) {
            return MALFORMED;
        }
    }

    boolean malformed() {
        return clientId == null;
    }
}
