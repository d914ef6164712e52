package com.example.identity.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

/**
 * The recovery links' own queries (migration V25) on the real schema: a JPA slice with Flyway, each test in a
 * transaction rolled back at its end. Named {@code *IT}: it needs a database. The integration tests' database
 * (profile {@code test}), not a slice's own embedded one ({@code replace = NONE}), so that {@code .ci/run} runs it
 * on PostgreSQL too; that database is shared with the other tests of the JVM, so the instants are long past
 * theirs and the counts are of this test's accounts only.
 */
@DataJpaTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@ActiveProfiles("test")
class PasswordResetRepositoryIT {

    static final Instant NOW = Instant.parse("2001-05-05T10:00:00Z");

    @Autowired
    PasswordResetRepository resets;

    @Autowired
    JdbcTemplate jdbc;

    long ana;
    long bea;

    @BeforeEach
    void twoAccounts() {
        ana = account("reset-repository-ana@example.com");
        bea = account("reset-repository-bea@example.com");
    }

    long account(String correo) {
        jdbc.update("insert into users (primer_nombre, correo, password_hash, rol, enabled, created_at, updated_at)"
                + " values ('Ana', ?, 'x', 'user', true, ?, ?)", correo, NOW.atOffset(java.time.ZoneOffset.UTC),
                NOW.atOffset(java.time.ZoneOffset.UTC));
        return jdbc.queryForObject("select id from users where correo = ?", Long.class, correo);
    }

    PasswordReset link(long userId, String digest, Instant created) {
        return resets.saveAndFlush(new PasswordReset(userId, digest, created, created.plus(PasswordRecovery.LIFETIME)));
    }

    static String digest(char c) {
        return String.valueOf(c).repeat(64);
    }

    @Test
    void theHourlyCountTakesOnlyTheAccountsLinksSentAfterTheInstant() {
        Instant hourAgo = NOW.minus(Duration.ofHours(1));
        link(ana, digest('a'), hourAgo);                       // exactly an hour ago: no longer counted
        link(ana, digest('b'), hourAgo.plusSeconds(1));
        link(ana, digest('c'), NOW);
        link(bea, digest('d'), NOW);
        assertThat(resets.countSentSince(ana, hourAgo)).isEqualTo(2);
        assertThat(resets.countSentSince(bea, hourAgo)).isEqualTo(1);
    }

    @Test
    void aLinkIsFoundByItsDigest() {
        var saved = link(ana, digest('a'), NOW);
        assertThat(resets.findByTokenDigest(digest('a'))).get().extracting(PasswordReset::id).isEqualTo(saved.id());
        assertThat(resets.findByTokenDigest(digest('z'))).isEmpty();
    }

    @Test
    void aLinkIsSpentOnceAndNotAfterItsExpiry() {
        var fresh = link(ana, digest('a'), NOW);
        assertThat(resets.use(fresh.id(), NOW.plusSeconds(60))).isEqualTo(1);
        assertThat(resets.use(fresh.id(), NOW.plusSeconds(61))).as("already used").isZero();
        assertThat(resets.findById(fresh.id())).get().matches(r -> !r.isUsableAt(NOW.plusSeconds(62)));

        var old = link(ana, digest('b'), NOW);
        assertThat(resets.use(old.id(), NOW.plus(PasswordRecovery.LIFETIME))).as("expired exactly now").isZero();
    }

    @Test
    void usingOneLinkEndsTheAccountsOtherLiveLinksOnly() {
        var first = link(ana, digest('a'), NOW);
        link(ana, digest('b'), NOW.plusSeconds(1));
        var others = link(bea, digest('c'), NOW);
        resets.use(first.id(), NOW.plusSeconds(2));
        assertThat(resets.endAll(ana, NOW.plusSeconds(2))).as("the one not used yet").isEqualTo(1);
        assertThat(resets.findByTokenDigest(digest('b'))).get().matches(r -> !r.isUsableAt(NOW.plusSeconds(3)));
        assertThat(resets.findById(others.id())).get().matches(r -> r.isUsableAt(NOW.plusSeconds(3)));
    }

    @Test
    void theRetentionJobDeletesLinksExpiredBeforeTheCutoff() {
        link(ana, digest('a'), NOW.minus(Duration.ofHours(2)));   // expired 1 h 30 min before NOW
        link(ana, digest('b'), NOW.minus(PasswordRecovery.LIFETIME)); // expires exactly at NOW: kept
        link(ana, digest('c'), NOW);
        assertThat(resets.deleteExpiredBefore(NOW)).isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from password_resets where user_id = ?", Integer.class, ana))
                .isEqualTo(2);
    }
}
