package com.example.identity.oauth.store;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.ClientGrants;

/**
 * The applications holding a code of the person's not yet spent nor expired, for {@link ClientGrants}: once spent,
 * what the application holds is its tokens (apitoken/, oauth/token/).
 */
@Component
class PendingCodeGrants implements ClientGrants {

    private final JdbcTemplate jdbc;

    PendingCodeGrants(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Set<String> clientsOf(long userId, Instant now) {
        return new TreeSet<>(jdbc.queryForList("select client_id from oauth_authorizations where user_id = ? "
                + "and code_used_at is null and code_expires_at > ?", String.class, userId, Timestamp.from(now)));
    }
}
