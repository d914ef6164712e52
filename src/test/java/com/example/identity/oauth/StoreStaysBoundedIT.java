package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.jdbc.JdbcIndexedSessionRepository;
import org.springframework.test.util.ReflectionTestUtils;

import com.example.identity.account.Role;
import com.example.identity.crypto.Secrets;
import com.example.identity.support.WebClient;

/**
 * Issue 47: the store is bounded by the live sessions and tokens, not by how many flows ran. A code flow's
 * authorization, which nothing needs once its code is exchanged (no refresh token, no back-channel logout), goes with
 * the exchange, in the statement that spends the code (decisions D48; {@code apitoken/QueryCountIT} counts it); what
 * stays is the access token, a live token. Expired login sessions go by Spring Session JDBC's cleanup (every minute),
 * never on a request.
 */
class StoreStaysBoundedIT extends OAuthTestBase {

    static final int FLOWS = 40;

    @Autowired
    FindByIndexNameSessionRepository<?> sessions;

    @Test
    void codeFlowsLeaveTheirAccessTokensAndNoAuthorization() {
        var client = newClient();
        var web = loggedInDeveloper();
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < FLOWS; i++) {
            String code = authorize(web, client, "openid email profile");
            assertThat(rows("oauth_authorizations", client.clientId())).as("the code's authorization, until its exchange")
                    .isOne();
            assertThat(exchange(client, code).statusCode()).isEqualTo(200);
            assertThat(rows("oauth_authorizations", client.clientId())).as("gone with the exchange, flow " + i).isZero();
            codes.add(code);
        }
        assertThat(rows("api_tokens", client.clientId())).as("one live access token a flow, nothing else").isEqualTo(FLOWS);
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where client_id = ? and authorization_id = ?",
                Integer.class, client.clientId(), Secrets.sha256Hex(codes.get(7))))
                .as("a token names its code's authorization by the code's digest").isOne();

        // a code not exchanged keeps its authorization until it is, or until the retention job
        String unspent = authorize(web, client, "openid");
        assertThat(jdbc.queryForObject("select count(*) from oauth_authorizations where id = ? and code_used_at is null",
                Integer.class, Secrets.sha256Hex(unspent))).isOne();

        // a second use of a code whose authorization is gone: still refused, and its token revoked
        TokenEndpointIT.assertError(exchange(client, codes.get(3)), 400, "Código ya utilizado");
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where client_id = ? and revoked_at is not null",
                Integer.class, client.clientId())).isOne();
        // and a code of this client presented by another is unknown to that one
        TokenEndpointIT.assertError(exchange(newClient(), codes.get(4)), 400, "Código de autorización inválido");
    }

    @Test
    void anAuthorizationWithARefreshTokenStaysMarkedUsed() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid offline_access");
        assertThat(exchange(client, code).statusCode()).isEqualTo(200);
        assertThat(jdbc.queryForObject("select count(*) from oauth_authorizations where id = ? and code_used_at is not null",
                Integer.class, Secrets.sha256Hex(code))).as("its refresh family needs its auth_time and amr").isOne();
    }

    @Test
    void expiredSessionsGoWithSpringSessionsCleanup() {
        String email = "u-" + UUID.randomUUID() + "@example.com";
        accounts.create("Eva", email, "correct-password-123", Role.USER);
        for (int i = 0; i < 3; i++) {
            assertThat(new WebClient(ISSUER).login(email, "correct-password-123").statusCode()).isEqualTo(302);
        }
        assertThat(sessionsOf(email)).isEqualTo(3);
        var live = new WebClient(ISSUER);
        assertThat(live.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        // three of the four out of time: an idle session's expiry moved back, as the clock would move it
        jdbc.update("""
                update spring_session set expiry_time = ? where principal_name = ? and primary_id in (
                    select primary_id from spring_session where principal_name = ? order by creation_time fetch first 3 rows only)""",
                System.currentTimeMillis() - 1000, email, email);

        ((JdbcIndexedSessionRepository) ReflectionTestUtils.getField(sessions, "delegate")).cleanUpExpiredSessions();

        assertThat(sessionsOf(email)).as("the live session only").isOne();
        assertThat(jdbc.queryForObject("""
                select count(*) from spring_session_attributes a where not exists (
                    select 1 from spring_session s where s.primary_id = a.session_primary_id)""", Integer.class))
                .as("no attributes left behind").isZero();
        assertThat(live.get("/cuenta/").statusCode()).as("the live one still works").isEqualTo(200);
    }

    private int rows(String table, String clientId) {
        return jdbc.queryForObject("select count(*) from " + table + " where client_id = ?", Integer.class, clientId);
    }

    private int sessionsOf(String email) {
        return jdbc.queryForObject("select count(*) from spring_session where principal_name = ?", Integer.class, email);
    }
}
