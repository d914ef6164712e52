package com.example.identity.apitoken;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.account.Role;

/**
 * The one query of the bearer hot path, on a miss of {@link ApiTokenValidator}'s cache: the token, its owner and,
 * for a token issued to a client, whether that client is revoked, by digest, in one round trip. The owner and the
 * client come from the views their owners publish (account/'s {@code account_principals}, client/'s
 * {@code client_revocations}, V96; docs/architecture.md): this package names only its own table.
 */
@Component
class ValidationRows {

    private static final String BY_DIGEST = """
            select t.id, t.kind, t.personal_scope, t.client_id, t.scopes, t.authorization_id, t.userinfo_claims,
                t.dpop_jkt, t.created_at, t.expires_at, t.revoked_at, t.last_used_at, t.user_id,
                u.primer_nombre, u.correo, u.rol, u.enabled, u.email_verified, c.revoked_at as client_revoked_at
            from api_tokens t join account_principals u on u.id = t.user_id
                left join client_revocations c on c.client_id = t.client_id
            where t.token_digest = ?""";

    private final JdbcTemplate jdbc;

    ValidationRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The token with digest {@code digest}, whatever its state, with its owner; empty for no such token. */
    Optional<Row> find(String digest) {
        return jdbc.query(BY_DIGEST, rs -> rs.next() ? Optional.of(row(rs)) : Optional.<Row>empty(), digest);
    }

    private static Row row(ResultSet rs) throws SQLException {
        String personalScope = rs.getString("personal_scope");
        return new Row(rs.getLong("id"), TokenKind.fromValue(rs.getString("kind")),
                personalScope == null ? null : TokenScope.fromValue(personalScope)
                        .orElseThrow(() -> new IllegalStateException("unknown token scope: " + personalScope)),
                rs.getString("client_id"), rs.getString("scopes"), rs.getString("authorization_id"),
                rs.getString("userinfo_claims"), rs.getString("dpop_jkt"),
                new Times(instant(rs, "created_at"), instant(rs, "expires_at"), instant(rs, "revoked_at"),
                        instant(rs, "last_used_at")),
                new Owner(rs.getLong("user_id"), rs.getString("primer_nombre"), rs.getString("correo"),
                        Role.fromValue(rs.getString("rol")), rs.getBoolean("enabled"), rs.getBoolean("email_verified")),
                instant(rs, "client_revoked_at"));
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** When the token was made, ends, was revoked and last used. */
    record Times(Instant createdAt, @Nullable Instant expiresAt, @Nullable Instant revokedAt, @Nullable Instant lastUsedAt) {
    }

    /** What the token's owner is, as account/ publishes it. */
    record Owner(long userId, String primerNombre, String correo, Role rol, boolean enabled, boolean emailVerified) {
    }

    /**
     * {@code clientRevokedAt} is the revocation time of the client a token was issued to, if any; {@code dpopJkt} the
     * thumbprint of the DPoP key the token is bound to, if any.
     */
    record Row(long tokenId, TokenKind kind, @Nullable TokenScope personalScope, @Nullable String clientId,
            @Nullable String scopes, @Nullable String authorizationId, @Nullable String userInfoClaims,
            @Nullable String dpopJkt, Times times, Owner owner, @Nullable Instant clientRevokedAt) {
    }
}
