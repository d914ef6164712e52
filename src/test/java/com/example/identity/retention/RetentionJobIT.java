package com.example.identity.retention;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.crypto.Secrets;
import com.example.identity.account.Role;
import com.example.identity.support.IntegrationTest;
import com.example.identity.apitoken.ApiTokenService;

/**
 * The hourly job forgets audit rows after 365 days, ended tokens (access and refresh) after 30, spent codes
 * after 1 unless a refresh token of theirs may still be used, and nothing else.
 */
@IntegrationTest
class RetentionJobIT {

    @Autowired
    RetentionJob job;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    static Timestamp ago(Duration d) {
        return Timestamp.from(Instant.now().minus(d));
    }

    @Test
    void eachKindIsPurgedAfterItsRetentionAndNotBefore() {
        String marker = "retention-" + UUID.randomUUID();
        jdbc.update("insert into audit_events (occurred_at, event, actor, subject) values (?, 'LOGIN_FAILED', ?, 'old')",
                ago(Duration.ofDays(366)), marker);
        jdbc.update("insert into audit_events (occurred_at, event, actor, subject) values (?, 'LOGIN_FAILED', ?, 'kept')",
                ago(Duration.ofDays(364)), marker);

        var owner = accounts.create("Ret", marker + "@example.com", "retention-pass-1", Role.DEVELOPER_API);
        long revokedLongAgo = tokens.createPersonal(owner.getId(), "revoked long ago").token().getId();
        long revokedLately = tokens.createPersonal(owner.getId(), "revoked lately").token().getId();
        String expiredValue = tokens.issueForClient(owner.getId(), "demo-app", Set.of("openid"), marker,
                Duration.ofHours(1));
        long expiredLongAgo = jdbc.queryForObject("select id from api_tokens where token_digest = ?", Long.class,
                com.example.identity.crypto.Secrets.sha256Hex(expiredValue));
        long live = tokens.createPersonal(owner.getId(), "live").token().getId();
        jdbc.update("update api_tokens set revoked_at = ? where id = ?", ago(Duration.ofDays(31)), revokedLongAgo);
        jdbc.update("update api_tokens set revoked_at = ? where id = ?", ago(Duration.ofDays(29)), revokedLately);
        jdbc.update("update api_tokens set expires_at = ? where id = ?", ago(Duration.ofDays(31)), expiredLongAgo);

        insertAuthorization(marker + "-old", owner.getId(), ago(Duration.ofHours(25)));
        insertAuthorization(marker + "-new", owner.getId(), ago(Duration.ofHours(23)));

        // login throttle pairs: kept while locked or known, deleted once neither
        String ended = Secrets.sha256Hex(marker + "|ended");
        String locked = Secrets.sha256Hex(marker + "|locked");
        String known = Secrets.sha256Hex(marker + "|known");
        jdbc.update("insert into login_pairs (pair_digest, locked_until, known_until) values (?, ?, ?)", ended,
                ago(Duration.ofMinutes(1)), ago(Duration.ofDays(1)));
        jdbc.update("insert into login_pairs (pair_digest, locked_until) values (?, ?)", locked,
                ago(Duration.ofMinutes(-10)));
        jdbc.update("insert into login_pairs (pair_digest, locked_until, known_until) values (?, ?, ?)", known,
                ago(Duration.ofMinutes(1)), ago(Duration.ofDays(-29)));

        // the guessing budgets of /activar: a row whose time has passed is a full budget, the same as none
        String full = Secrets.sha256Hex(marker + "|full");
        String spent = Secrets.sha256Hex(marker + "|spent");
        jdbc.update("insert into user_code_budgets (key_digest, next_free_ms) values (?, ?)", full,
                Instant.now().minusSeconds(1).toEpochMilli());
        jdbc.update("insert into user_code_budgets (key_digest, next_free_ms) values (?, ?)", spent,
                Instant.now().plusSeconds(300).toEpochMilli());

        job.run();

        assertThat(jdbc.queryForList("select key_digest from user_code_budgets where key_digest in (?, ?)",
                String.class, full, spent)).containsExactly(spent);
        assertThat(jdbc.queryForList("select pair_digest from login_pairs where pair_digest in (?, ?, ?)", String.class,
                ended, locked, known)).containsExactlyInAnyOrder(locked, known);
        assertThat(jdbc.queryForList("select subject from audit_events where actor = ?", String.class, marker))
                .containsExactly("kept");
        assertThat(jdbc.queryForList("select id from api_tokens where user_id = ? order by id", Long.class, owner.getId()))
                .containsExactly(revokedLately, live);
        assertThat(jdbc.queryForList("select id from oauth_authorizations where id like ?", String.class, marker + "%"))
                .containsExactly(marker + "-new");
    }

    @Test
    void anAuthorizationStaysWhileARefreshTokenOfItsFamilyMayBeUsedAndEndedRefreshTokensGo() {
        String marker = "retention-rt-" + UUID.randomUUID();
        var owner = accounts.create("Ret", marker + "@example.com", "retention-pass-1", Role.USER);
        insertAuthorization(marker + "-live", owner.getId(), ago(Duration.ofDays(10)));
        insertAuthorization(marker + "-rotated", owner.getId(), ago(Duration.ofDays(10)));
        insertRefreshToken(marker + "-live", owner.getId(), ago(Duration.ofDays(-20)), null, null);
        insertRefreshToken(marker + "-rotated", owner.getId(), ago(Duration.ofDays(-20)), ago(Duration.ofDays(9)), null);
        insertRefreshToken(marker + "-gone", owner.getId(), ago(Duration.ofDays(31)), null, null);
        insertRefreshToken(marker + "-gone", owner.getId(), ago(Duration.ofDays(-1)), null, ago(Duration.ofDays(31)));
        insertRefreshToken(marker + "-kept", owner.getId(), ago(Duration.ofDays(29)), null, null);

        job.run();

        assertThat(jdbc.queryForList("select id from oauth_authorizations where id like ?", String.class, marker + "%"))
                .containsExactly(marker + "-live");
        assertThat(jdbc.queryForList("select authorization_id from refresh_tokens where user_id = ?", String.class,
                owner.getId())).containsExactlyInAnyOrder(marker + "-live", marker + "-rotated", marker + "-kept");
    }

    private void insertRefreshToken(String authorizationId, long userId, Timestamp expiresAt, Timestamp rotatedAt,
            Timestamp revokedAt) {
        jdbc.update("""
                insert into refresh_tokens (token_digest, authorization_id, client_id, user_id, scopes, created_at,
                    expires_at, rotated_at, revoked_at)
                values (?, ?, 'demo-app', ?, 'openid offline_access', ?, ?, ?, ?)
                """, Secrets.sha256Hex(UUID.randomUUID().toString()), authorizationId, userId,
                ago(Duration.ofDays(40)), expiresAt, rotatedAt, revokedAt);
    }

    private void insertAuthorization(String id, long userId, Timestamp expiredAt) {
        jdbc.update("""
                insert into oauth_authorizations (id, client_id, user_id, scopes, redirect_uri, code_digest,
                    code_issued_at, code_expires_at, auth_time)
                values (?, 'demo-app', ?, 'openid', 'http://localhost:9000/callback', ?, ?, ?, ?)
                """, id, userId, UUID.randomUUID().toString().replace("-", ""), expiredAt, expiredAt, expiredAt);
    }
}
