package com.example.identity.recovery;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code recuperaciones_contrasena}: when each recovery link was made and used, never the link. */
@Component
class RecoveryData implements PersonalData {

    private final JdbcTemplate jdbc;

    RecoveryData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "recuperaciones_contrasena";
    }

    @Override
    public Set<String> tables() {
        return Set.of("password_resets");
    }

    @Override
    public @Nullable Object of(Person person) {
        return PersonalData.rows(jdbc, "select created_at, expires_at, used_at from password_resets "
                + "where user_id = ? order by id", person.userId());
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from password_resets where user_id = ?", person.userId());
    }
}
