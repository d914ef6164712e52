package com.example.identity.session;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.stereotype.Component;

import com.example.identity.crypto.Secrets;

/**
 * A user's open sessions, for {@code /cuenta/seguridad} (decisions §17): where each was opened (the
 * browser's {@code User-Agent} and the address, recorded at login), when it was last used, and a way to end
 * one or all the others, on every instance (the sessions are rows of Spring Session JDBC). A session is
 * named on the page by a handle, a digest of its id: session ids are credentials and never appear in a page.
 */
@Component
public class OpenSessions {

    /** Session attributes written at login ({@code signin/LoginSuccessHandler}). */
    public static final String AGENT = "identity.session.agent";
    public static final String ADDRESS = "identity.session.address";

    private final FindByIndexNameSessionRepository<? extends Session> sessions;

    OpenSessions(FindByIndexNameSessionRepository<? extends Session> sessions) {
        this.sessions = sessions;
    }

    /** One open session as the page shows it. */
    public record OpenSession(String handle, String device, String address, Instant openedAt, Instant lastSeen,
            boolean current) {
    }

    /** The open sessions of {@code correo}, the current one first, then the most recently used. */
    public List<OpenSession> of(String correo, @Nullable String currentId) {
        return sessions.findByPrincipalName(correo).values().stream()
                .filter(s -> !s.isExpired())
                .map(s -> new OpenSession(handle(s.getId()), device(s.getAttribute(AGENT)),
                        s.getAttribute(ADDRESS) instanceof String a ? a : "—", s.getCreationTime(),
                        s.getLastAccessedTime(), s.getId().equals(currentId)))
                .sorted(Comparator.comparing(OpenSession::current).reversed()
                        .thenComparing(OpenSession::lastSeen, Comparator.reverseOrder()))
                .toList();
    }

    /** Ends the session of {@code correo} named by {@code handle}; false when there is none (or it is the current one). */
    public boolean end(String correo, String handle, @Nullable String currentId) {
        for (Map.Entry<String, ? extends Session> entry : sessions.findByPrincipalName(correo).entrySet()) {
            if (handle(entry.getKey()).equals(handle) && !entry.getKey().equals(currentId)) {
                sessions.deleteById(entry.getKey());
                return true;
            }
        }
        return false;
    }

    /** Ends every session of {@code correo} but the current one; returns how many ended. */
    public int endOthers(String correo, @Nullable String currentId) {
        int ended = 0;
        for (String id : sessions.findByPrincipalName(correo).keySet()) {
            if (!id.equals(currentId)) {
                sessions.deleteById(id);
                ended++;
            }
        }
        return ended;
    }

    static String handle(String sessionId) {
        return Secrets.sha256Hex(sessionId).substring(0, 24);
    }

    /** A short name of the browser and system of a {@code User-Agent}, enough to recognise a device. */
    static String device(@Nullable Object agent) {
        if (!(agent instanceof String ua) || ua.isBlank()) {
            return "Desconocido";
        }
        String browser = ua.contains("Edg/") ? "Edge" : ua.contains("OPR/") ? "Opera"
                : ua.contains("Firefox/") ? "Firefox" : ua.contains("Chrome/") || ua.contains("Chromium/") ? "Chrome"
                : ua.contains("Safari/") ? "Safari" : ua.startsWith("curl/") ? "curl"
                : ua.contains("Java-http-client") ? "Java" : null;
        String system = ua.contains("Android") ? "Android" : ua.contains("iPhone") || ua.contains("iPad") ? "iOS"
                : ua.contains("Windows") ? "Windows" : ua.contains("Mac OS X") || ua.contains("Macintosh") ? "macOS"
                : ua.contains("CrOS") ? "ChromeOS" : ua.contains("Linux") ? "Linux" : null;
        if (browser == null && system == null) {
            return ua.length() > 60 ? ua.substring(0, 60) + "…" : ua;
        }
        return browser == null ? system : system == null ? browser : browser + " en " + system;
    }
}
