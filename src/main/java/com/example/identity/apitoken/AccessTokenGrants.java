package com.example.identity.apitoken;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.ClientGrants;

/**
 * The applications holding an access token of the person's neither revoked nor expired ({@link ClientGrants});
 * personal tokens belong to no application.
 */
@Component
class AccessTokenGrants implements ClientGrants {

    private final JdbcTemplate jdbc;

    AccessTokenGrants(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Set<String> clientsOf(long userId, Instant now) {
        return new TreeSet<>(jdbc.queryForList("select client_id from api_tokens where user_id = ? and client_id is not null "
                + "and revoked_at is null and (expires_at is null or expires_at > ?)", String.class, userId,
                Timestamp.from(now)));
    }
}
