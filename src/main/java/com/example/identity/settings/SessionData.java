package com.example.identity.settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;
import com.example.identity.session.OpenSessions;

/**
 * The download's {@code sesiones}, the current one marked, never a session id: filled here from session/'s
 * {@link OpenSessions}, since session/ is infrastructure below common/'s contributions (ArchitectureTest).
 */
@Component
class SessionData implements PersonalData {

    private final OpenSessions sessions;

    SessionData(OpenSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public String section() {
        return "sesiones";
    }

    @Override
    public Set<String> tables() {
        return Set.of("spring_session", "spring_session_attributes");
    }

    @Override
    public @Nullable Object of(Person person) {
        if (person.correo() == null) {
            return List.of();
        }
        return sessions.of(person.correo(), person.currentSessionId()).stream().map(s -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("dispositivo", s.device());
            row.put("direccion", s.address());
            row.put("abierta", s.openedAt().toString());
            row.put("ultimo_uso", s.lastSeen().toString());
            row.put("actual", s.current());
            return row;
        }).toList();
    }

    @Override
    public void forget(Person person) {
        // the sessions end on account/AccountChanged (account/SessionTerminator), before this
    }
}
