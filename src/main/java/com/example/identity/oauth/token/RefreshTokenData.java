package com.example.identity.oauth.token;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.PersonalData;

/** The download's {@code refresh_tokens}: when each was issued, rotated, revoked; never a digest. */
@Component
class RefreshTokenData implements PersonalData {

    private final JdbcTemplate jdbc;

    RefreshTokenData(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String section() {
        return "refresh_tokens";
    }

    @Override
    public Set<String> tables() {
        return Set.of("refresh_tokens");
    }

    @Override
    public @Nullable Object of(Person person) {
        return PersonalData.rows(jdbc, "select client_id, scopes, created_at, expires_at, rotated_at, revoked_at "
                + "from refresh_tokens where user_id = ? order by id", person.userId());
    }

    @Override
    public void forget(Person person) {
        jdbc.update("delete from refresh_tokens where user_id = ?", person.userId());
    }
}
