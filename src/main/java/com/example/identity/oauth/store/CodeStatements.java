package com.example.identity.oauth.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Role;
import com.example.identity.apitoken.AuthorizationTokens;
import com.example.identity.common.SpaceSeparated;

/**
 * The code flow's hot statements, in plain JDBC: issuing a code (one INSERT, its own autocommit statement: one
 * round trip), and at the exchange reading the code with its owner (one join) and marking it used (one conditional
 * UPDATE), inside the exchange's transaction. The owner comes from the view that account/ publishes for it ({@code
 * account_principals}, V96; docs/architecture.md): this package names only its own tables. They are every code's
 * work and were measured (JFR, sso-code on PostgreSQL) at a fifth of the service's Java time through Hibernate,
 * entity snapshots, flushes and identity maps included. Everything else about authorizations (refresh families, the
 * device flow's records, the purge) keeps its JPA entity, {@link AuthorizationRecord}, over the same rows.
 */
@Component
class CodeStatements {

    private static final String INSERT = """
            insert into oauth_authorizations (id, client_id, user_id, scopes, redirect_uri, nonce, code_challenge,
                code_challenge_method, code_digest, code_issued_at, code_expires_at, auth_time, amr, id_token_claims,
                userinfo_claims, sid)
            values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    private static final String WITH_OWNER = """
            select a.id, a.client_id, a.user_id, a.scopes, a.redirect_uri, a.nonce, a.code_challenge,
                a.code_challenge_method, a.code_digest, a.code_issued_at, a.code_expires_at, a.code_used_at, a.auth_time,
                a.amr, a.id_token_claims, a.userinfo_claims, a.sid,
                u.primer_nombre, u.correo, u.rol, u.enabled, u.password_change_required, u.email_verified
            from oauth_authorizations a join account_principals u on u.id = a.user_id
            where a.code_digest = ?""";

    private final JdbcTemplate jdbc;

    private final AuthorizationTokens tokens;

    CodeStatements(JdbcTemplate jdbc, AuthorizationTokens tokens) {
        this.jdbc = jdbc;
        this.tokens = tokens;
    }

    /** Stores a new authorization with its code: one INSERT (a second one with the same id fails on the key). */
    void insert(AuthorizationRecord record) {
        jdbc.update(INSERT, record.id(), record.clientId(), record.userId(), String.join(" ", record.scopes()),
                record.redirectUri(), record.nonce(), record.codeChallenge(), record.codeChallengeMethod(),
                record.codeDigest(), Timestamp.from(record.codeIssuedAt()), Timestamp.from(record.codeExpiresAt()),
                Timestamp.from(record.authTime()), joined(record.amr()), joined(record.idTokenClaims()),
                joined(record.userInfoClaims()), record.sid());
    }

    /** The record of a code (by its digest) and the account it was issued for, in one statement. */
    Optional<CodeAndOwner> findWithOwner(String codeDigest) {
        return jdbc.query(WITH_OWNER, rs -> rs.next() ? Optional.of(codeAndOwner(rs)) : Optional.<CodeAndOwner>empty(),
                codeDigest);
    }

    /** Marks the code used, only if still unused: of any number of concurrent exchanges exactly one sees true. */
    boolean markUsed(String authorizationId, Instant now) {
        return jdbc.update("update oauth_authorizations set code_used_at = ? where id = ? and code_used_at is null",
                Timestamp.from(now), authorizationId) == 1;
    }

    /**
     * Spends the code by deleting its authorization, only if still unused: the same one statement as
     * {@link #markUsed}, and of concurrent exchanges exactly one sees true (the others wait for its row lock, then
     * find it gone). For an authorization nothing needs after its exchange (decisions D48).
     */
    boolean deleteUnused(String authorizationId) {
        return jdbc.update("delete from oauth_authorizations where id = ? and code_used_at is null", authorizationId) == 1;
    }

    /**
     * A code whose authorization its exchange deleted, known by a token issued from it (the authorization's id is the
     * code's digest): read only when a presented code is not found, never on a successful exchange.
     */
    Optional<SpentCode> spentCode(String codeDigest) {
        return tokens.issuedFrom(codeDigest).map(holder -> new SpentCode(codeDigest, holder.clientId(), holder.userId()));
    }

    private static CodeAndOwner codeAndOwner(ResultSet rs) throws SQLException {
        var record = AuthorizationRecord.loaded(rs.getString("id"),
                new AuthorizationRecord.Request(rs.getString("client_id"), words(rs, "scopes"),
                        rs.getString("redirect_uri"), rs.getString("nonce"), rs.getString("code_challenge"),
                        rs.getString("code_challenge_method"), words(rs, "id_token_claims"),
                        words(rs, "userinfo_claims")),
                new AuthorizationRecord.Login(rs.getLong("user_id"), instant(rs, "auth_time"), words(rs, "amr"),
                        rs.getString("sid")),
                new AuthorizationRecord.Code(rs.getString("code_digest"), instant(rs, "code_issued_at"),
                        instant(rs, "code_expires_at")),
                instant(rs, "code_used_at"));
        // what the id_token and the token's owner need, never the password hash
        var owner = new AccountPrincipal(rs.getLong("user_id"), rs.getString("primer_nombre"), rs.getString("correo"),
                Role.fromValue(rs.getString("rol")), rs.getBoolean("enabled"), rs.getBoolean("password_change_required"),
                rs.getBoolean("email_verified"), null);
        return new CodeAndOwner(record, owner);
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** The words of a space-separated column, as {@link AuthorizationRecord} stores them again. */
    private static Set<String> words(ResultSet rs, String column) throws SQLException {
        return SpaceSeparated.words(rs.getString(column));
    }

    private static @Nullable String joined(java.util.Collection<String> words) {
        return words.isEmpty() ? null : String.join(" ", words);
    }
}
