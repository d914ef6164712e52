package com.example.identity.apitoken;

import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Which application and person an authorization's access token was issued to, asked by oauth/ of a code whose
 * authorization its exchange deleted (decisions D48): the token still names the authorization. Only apitoken/
 * names {@code api_tokens} (issue 41).
 */
@Component
public class AuthorizationTokens {

    /** The application and the person a token of the authorization was issued to. */
    public record Holder(String clientId, long userId) {
    }

    private final JdbcTemplate jdbc;

    AuthorizationTokens(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The holder of a token issued from authorization {@code authorizationId}, if one was. */
    public Optional<Holder> issuedFrom(String authorizationId) {
        return jdbc.query("select client_id, user_id from api_tokens where authorization_id = ? and client_id is not null",
                rs -> rs.next() ? Optional.of(new Holder(rs.getString(1), rs.getLong(2))) : Optional.<Holder>empty(),
                authorizationId);
    }
}
