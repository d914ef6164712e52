package com.example.identity.backchannel;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.crypto.Secrets;

/**
 * The rows of {@code backchannel_logout_sessions} (V46): which application got an authorization, and then an
 * id_token, in which login session ({@code sid}). Read when the session ends ({@link SessionEndedListener}).
 */
@Component
class LogoutSessions {

    /** One application to tell that session {@code sid} of {@code userId} ended, at {@code uri}. */
    record ToTell(String clientId, String uri, long userId, String sid) {
    }

    private final JdbcTemplate jdbc;
    private final Clock clock;

    LogoutSessions(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A new sid: 128 random bits, unrelated to the session id. */
    static String newSid() {
        return Secrets.randomUrlSafe(16);
    }

    /**
     * The authorization {@code authorizationId} (a code just issued, with scope {@code openid}: its exchange issues an
     * id_token) was given in session {@code sid}. Marked as told an id_token at once ({@code id_token_at}), so that
     * the code's exchange costs one read only (token/QueryCountIT); a code never exchanged means a logout token the
     * application ignores (Back-Channel Logout 1.0 §2.6: no session of that sid there).
     */
    void recordAuthorization(String authorizationId, String sid, long userId, String clientId) {
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.update("insert into backchannel_logout_sessions (sid, user_id, client_id, authorization_id, created_at, "
                + "id_token_at) values (?, ?, ?, ?, ?, ?)", sid, userId, clientId, authorizationId, now, now);
    }

    /** The sid of the session in which {@code authorizationId} was given, for its id_tokens: one read. */
    Optional<String> sidOf(String authorizationId) {
        return jdbc.queryForList("select sid from backchannel_logout_sessions where authorization_id = ?", String.class,
                authorizationId).stream().findFirst();
    }

    /**
     * The applications that got an id_token in session {@code sid} and have a back-channel logout URI (one each, not
     * revoked); the session's rows are deleted.
     */
    List<ToTell> endSession(String sid) {
        List<ToTell> toTell = jdbc.query("""
                select distinct b.client_id, c.backchannel_logout_uri, b.user_id from backchannel_logout_sessions b
                join oauth_clients c on c.client_id = b.client_id
                where b.sid = ? and b.id_token_at is not null and c.backchannel_logout_uri is not null
                  and c.revoked_at is null""",
                (rs, i) -> new ToTell(rs.getString(1), rs.getString(2), rs.getLong(3), sid), sid);
        jdbc.update("delete from backchannel_logout_sessions where sid = ?", sid);
        return toTell;
    }
}
