package com.example.identity.consent;

import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.ClientGrants;

/** The applications a person has given consent to (a withdrawal deletes the row), for {@link ClientGrants}. */
@Component
class ConsentGrants implements ClientGrants {

    private final JdbcTemplate jdbc;

    ConsentGrants(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Set<String> clientsOf(long userId, Instant now) {
        return new TreeSet<>(jdbc.queryForList("select client_id from oauth_consents where user_id = ?", String.class,
                userId));
    }
}
