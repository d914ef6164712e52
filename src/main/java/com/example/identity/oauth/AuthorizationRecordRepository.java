package com.example.identity.oauth;

import java.time.Instant;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface AuthorizationRecordRepository extends JpaRepository<AuthorizationRecord, String> {

    Optional<AuthorizationRecord> findByCodeDigest(String codeDigest);

    /**
     * Removes authorizations whose code expired before {@code cutoff}, except those with a refresh token
     * that may still be used (its family needs the login's auth_time and amr): they can do nothing more.
     */
    @Modifying
    @Query("""
            delete from AuthorizationRecord a where a.codeExpiresAt < :cutoff and not exists (
                select 1 from RefreshTokenRecord r where r.authorizationId = a.id
                    and r.rotatedAt is null and r.revokedAt is null and r.expiresAt > :now)
            """)
    int deleteExpiredBefore(@Param("cutoff") Instant cutoff, @Param("now") Instant now);
}
