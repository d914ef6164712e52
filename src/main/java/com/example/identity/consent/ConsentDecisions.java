package com.example.identity.consent;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;

import com.example.identity.crypto.Secrets;

/**
 * The consent page's answer, handed to the authorization request it was for: when the user approves, the
 * session remembers that exact request (a digest of its local URL) for a few minutes; when the request
 * comes back, the consent step lets it through once. So the page is shown once per request even where
 * consent is always asked ({@code offline_access}, {@code prompt=consent}), and no other request can ride
 * on it. Sessions live in the database, so this works whichever instance serves the return.
 */
public final class ConsentDecisions {

    static final String ATTRIBUTE = ConsentDecisions.class.getName();
    static final Duration LIFETIME = Duration.ofMinutes(10);
    static final int MAX = 16;

    private ConsentDecisions() {
    }

    /** The user approved the authorization request at {@code requestUrl}. */
    static void remember(HttpSession session, String requestUrl, Instant now) {
        Map<String, Instant> approved = approved(session, now);
        approved.put(Secrets.sha256Hex(requestUrl), now);
        while (approved.size() > MAX) {
            approved.remove(approved.keySet().iterator().next());
        }
        session.setAttribute(ATTRIBUTE, approved);
    }

    /** Whether the user approved the request at {@code requestUrl}; true once, then forgotten. */
    public static boolean consume(@Nullable HttpSession session, String requestUrl, Instant now) {
        if (session == null) {
            return false;
        }
        Map<String, Instant> approved = approved(session, now);
        boolean found = approved.remove(Secrets.sha256Hex(requestUrl)) != null;
        if (found) {
            session.setAttribute(ATTRIBUTE, approved);
        }
        return found;
    }

    private static Map<String, Instant> approved(HttpSession session, Instant now) {
        Map<String, Instant> approved = new LinkedHashMap<>();
        if (session.getAttribute(ATTRIBUTE) instanceof Map<?, ?> stored) {
            stored.forEach((digest, at) -> {
                if (digest instanceof String d && at instanceof Instant t && t.plus(LIFETIME).isAfter(now)) {
                    approved.put(d, t);
                }
            });
        }
        return approved;
    }
}
