package com.example.identity.backchannel;

import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which applications were logged in, with OpenID Connect, in which login session: the {@code sid} column of
 * {@code oauth_authorizations} (V54), written with the code by the authorization endpoint (oauth/store) at no extra
 * statement. Read when the session ends ({@link SessionEndedListener}). The rows follow the authorizations' retention
 * (a day after the code expired, or while a refresh token lives): a session that ends later than that is not told
 * to an application whose code was used without a refresh token (docs/oauth-oidc.md). The code exchange keeps them
 * for applications with a back-channel logout URI only; others' go with their exchange (decisions D48).
 */
@Component
class LogoutSessions {

    /** One application to tell that session {@code sid} of {@code userId} ended, at {@code uri}. */
    record ToTell(String clientId, String uri, long userId, String sid) {
    }

    private final JdbcTemplate jdbc;

    LogoutSessions(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The applications given a code of scope {@code openid} in session {@code sid} (its id_tokens carry that sid) that
     * have a back-channel logout URI: one each, not revoked. A code never exchanged means a logout token the
     * application ignores (Back-Channel Logout 1.0 §2.6: no session of that sid there).
     */
    List<ToTell> endSession(String sid) {
        return jdbc.query("""
                select distinct a.client_id, c.backchannel_logout_uri, a.user_id from oauth_authorizations a
                join oauth_clients c on c.client_id = a.client_id
                where a.sid = ? and c.backchannel_logout_uri is not null and c.revoked_at is null""",
                (rs, i) -> new ToTell(rs.getString(1), rs.getString(2), rs.getLong(3), sid), sid);
    }
}
