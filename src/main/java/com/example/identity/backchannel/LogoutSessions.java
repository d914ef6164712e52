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

    /** The authorization {@code authorizationId} (a code just issued) was given in session {@code sid}. */
    void recordAuthorization(String authorizationId, String sid, long userId, String clientId) {
        jdbc.update("insert into backchannel_logout_sessions (sid, user_id, client_id, authorization_id, created_at) "
                + "values (?, ?, ?, ?, ?)", sid, userId, clientId, authorizationId, Timestamp.from(clock.instant()));
    }

    /** An id_token is being issued for {@code authorizationId}: its session's sid, now marked as told an id_token. */
    Optional<String> idTokenIssued(String authorizationId) {
        jdbc.update("update backchannel_logout_sessions set id_token_at = ? where authorization_id = ? and id_token_at is null",
                Timestamp.from(clock.instant()), authorizationId);
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
