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
import com.example.identity.token.ApiTokenService;

/** The hourly job forgets audit rows after 365 days, ended tokens after 30, spent codes after 1, and nothing else. */
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
        long expiredLongAgo = tokens.issueForClient(owner.getId(), "demo-app", Set.of("openid"), marker,
                Duration.ofHours(1)).token().getId();
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

        job.run();

        assertThat(jdbc.queryForList("select pair_digest from login_pairs where pair_digest in (?, ?, ?)", String.class,
                ended, locked, known)).containsExactlyInAnyOrder(locked, known);
        assertThat(jdbc.queryForList("select subject from audit_events where actor = ?", String.class, marker))
                .containsExactly("kept");
        assertThat(jdbc.queryForList("select id from api_tokens where user_id = ? order by id", Long.class, owner.getId()))
                .containsExactly(revokedLately, live);
        assertThat(jdbc.queryForList("select id from oauth_authorizations where id like ?", String.class, marker + "%"))
                .containsExactly(marker + "-new");
    }

    private void insertAuthorization(String id, long userId, Timestamp expiredAt) {
        jdbc.update("""
                insert into oauth_authorizations (id, client_id, user_id, scopes, redirect_uri, code_digest,
                    code_issued_at, code_expires_at, auth_time)
                values (?, 'demo-app', ?, 'openid', 'http://localhost:9000/callback', ?, ?, ?, ?)
                """, id, userId, UUID.randomUUID().toString().replace("-", ""), expiredAt, expiredAt, expiredAt);
    }
}
