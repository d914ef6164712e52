package com.example.identity.token;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.Role;

interface ApiTokenRepository extends JpaRepository<ApiToken, Long> {

    /**
     * The one query of the hot path: the token, its owner and, for a token issued to a client, whether
     * that client is revoked, by digest, in one round trip.
     */
    @Query("""
            select new com.example.identity.token.ApiTokenRepository$Row(
                t.id, t.kind, t.personalScope, t.clientId, t.scopes, t.authorizationId, t.expiresAt, t.revokedAt,
                t.lastUsedAt, u.id, u.primerNombre, u.correo, u.rol, u.enabled, c.revokedAt)
            from ApiToken t join UserAccount u on u.id = t.userId
                left join OAuthClient c on c.clientId = t.clientId
            where t.tokenDigest = :digest
            """)
    Optional<Row> findValidationRow(@Param("digest") String digest);

    List<ApiToken> findByUserIdOrderByCreatedAtDesc(long userId);

    List<ApiToken> findAllByOrderByCreatedAtDesc();

    @Modifying
    @Query("update ApiToken t set t.revokedAt = :now where t.authorizationId = :authorizationId and t.revokedAt is null")
    int revokeByAuthorization(@Param("authorizationId") String authorizationId, @Param("now") Instant now);

    @Modifying
    @Query("update ApiToken t set t.revokedAt = :now where t.clientId = :clientId and t.revokedAt is null")
    int revokeByClient(@Param("clientId") String clientId, @Param("now") Instant now);

    /** Records a use at most once per {@code cutoff} window: no write when the stored time is recent. */
    @Transactional
    @Modifying
    @Query("update ApiToken t set t.lastUsedAt = :now where t.id = :id and (t.lastUsedAt is null or t.lastUsedAt < :cutoff)")
    int touch(@Param("id") long id, @Param("now") Instant now, @Param("cutoff") Instant cutoff);

    /** {@code clientRevokedAt} is the revocation time of the client a token was issued to, if any. */
    record Row(long tokenId, TokenKind kind, TokenScope personalScope, String clientId, String scopes,
            String authorizationId, Instant expiresAt, Instant revokedAt, Instant lastUsedAt, long userId,
            String primerNombre, String correo, Role rol, boolean enabled, Instant clientRevokedAt) {
    }
}
