package com.example.identity.apitoken;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code tokens_api}: the person's tokens by name and prefix, never a digest. */
@Component
class ApiTokenData implements PersonalData {

    private final JdbcTemplate jdbc;

    ApiTokenData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "tokens_api";
    }

    @Override
    public Set<String> tables() {
        return Set.of("api_tokens");
    }

    @Override
    public @Nullable Object of(Person person) {
        return PersonalData.rows(jdbc, "select id, name as nombre, prefix as prefijo, kind as tipo, personal_scope as alcance, "
                + "client_id, scopes, created_at, expires_at, last_used_at, revoked_at from api_tokens where user_id = ? "
                + "order by id", person.userId());
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from api_tokens where user_id = ?", person.userId());
    }
}
