package com.example.identity.sanctions;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code sanciones} (decisions §26): the sanctions placed on the person, not who placed them. */
@Component
class SanctionData implements PersonalData {

    private final SanctionService sanctions;
    private final Clock clock;
    private final JdbcTemplate jdbc;

    SanctionData(SanctionService sanctions, Clock clock, JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.sanctions = sanctions;
        this.clock = clock;
    }

    @Override
    public String section() {
        return "sanciones";
    }

    @Override
    public Set<String> tables() {
        return Set.of("sanctions");
    }

    @Override
    public @Nullable Object of(Person person) {
        return sanctions.ofPerson(person.userId()).stream().map(s -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", s.id());
            row.put("motivo", s.motivo());
            row.put("hasta", s.hasta() == null ? null : s.hasta().toString());
            row.put("client_id", s.clientId());
            row.put("creada", s.createdAt().toString());
            row.put("levantada", s.liftedAt() == null ? null : s.liftedAt().toString());
            row.put("en_vigor", s.inForceAt(clock.instant()));
            return row;
        }).toList();
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from sanctions where user_id = ?", person.userId());
    }
}
