package com.example.identity.oauth.token;

import java.time.Instant;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface RefreshTokenRepository extends JpaRepository<RefreshTokenRecord, Long> {

    Optional<RefreshTokenRecord> findByTokenDigest(String tokenDigest);

    /**
     * Marks a live token rotated, only if it still is live: one conditional UPDATE, so that of any number
     * of concurrent refreshes with it exactly one sees 1 here (on PostgreSQL the others wait for that
     * row's lock and then find it rotated).
     */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("""
            update RefreshTokenRecord r set r.rotatedAt = :now
            where r.id = :id and r.rotatedAt is null and r.revokedAt is null
            """)
    int markRotated(@Param("id") long id, @Param("now") Instant now);

    /** Revokes every refresh token of one family (authorization) that is not revoked yet. */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update RefreshTokenRecord r set r.revokedAt = :now where r.authorizationId = :authorizationId and r.revokedAt is null")
    int revokeFamily(@Param("authorizationId") String authorizationId, @Param("now") Instant now);

    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update RefreshTokenRecord r set r.revokedAt = :now where r.clientId = :clientId and r.revokedAt is null")
    int revokeByClient(@Param("clientId") String clientId, @Param("now") Instant now);

    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("""
            update RefreshTokenRecord r set r.revokedAt = :now
            where r.clientId = :clientId and r.userId = :userId and r.revokedAt is null
            """)
    int revokeByClientAndUser(@Param("clientId") String clientId, @Param("userId") long userId,
            @Param("now") Instant now);

    /** Revokes every refresh token of one user (a sanction in every application, sanctions/). */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update RefreshTokenRecord r set r.revokedAt = :now where r.userId = :userId and r.revokedAt is null")
    int revokeByUser(@Param("userId") long userId, @Param("now") Instant now);

    /** Deletes tokens that expired, or were revoked, before {@code cutoff}: they can do nothing more. */
    @Modifying
    @Query("delete from RefreshTokenRecord r where r.expiresAt < :cutoff or r.revokedAt < :cutoff")
    int deleteEndedBefore(@Param("cutoff") Instant cutoff);
}
