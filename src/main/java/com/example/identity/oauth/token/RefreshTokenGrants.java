package com.example.identity.oauth.token;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.ClientGrants;

/** The applications holding a refresh token of the person's neither rotated, revoked nor expired ({@link ClientGrants}). */
@Component
class RefreshTokenGrants implements ClientGrants {

    private final JdbcTemplate jdbc;

    RefreshTokenGrants(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Set<String> clientsOf(long userId, Instant now) {
        return new TreeSet<>(jdbc.queryForList("select client_id from refresh_tokens where user_id = ? "
                + "and rotated_at is null and revoked_at is null and expires_at > ?", String.class, userId,
                Timestamp.from(now)));
    }
}
