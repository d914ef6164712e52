package com.example.identity.account;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code cambios_correo}: the address changes asked for, never their links. */
@Component
class EmailChangeData implements PersonalData {

    private final JdbcTemplate jdbc;

    EmailChangeData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "cambios_correo";
    }

    @Override
    public Set<String> tables() {
        return Set.of("email_changes");
    }

    @Override
    public @Nullable Object of(Person person) {
        return PersonalData.rows(jdbc, "select new_correo as correo_nuevo, created_at, expires_at, used_at from email_changes "
                + "where user_id = ? order by id", person.userId());
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from email_changes where user_id = ?", person.userId());
    }
}
