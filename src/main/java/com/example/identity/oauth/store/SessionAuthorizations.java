package com.example.identity.oauth.store;

import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which applications were given a code in a login session, from the {@code sid} column of
 * {@code oauth_authorizations} (V54), written with the code at no extra statement: asked by back-channel logout
 * when the session ends (backchannel/, issue 41: this package alone names the table).
 */
@Component
public class SessionAuthorizations {

    /** An application given a code of {@code userId}'s in the session. */
    public record Authorized(String clientId, long userId) {
    }

    private final JdbcTemplate jdbc;

    SessionAuthorizations(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The applications given a code (of scope {@code openid}: only those carry a sid) in session {@code sid}, once each. */
    public List<Authorized> inSession(String sid) {
        return jdbc.query("select distinct client_id, user_id from oauth_authorizations where sid = ?",
                (rs, i) -> new Authorized(rs.getString(1), rs.getLong(2)), sid);
    }
}
