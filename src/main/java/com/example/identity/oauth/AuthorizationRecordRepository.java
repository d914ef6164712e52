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
     * Marks the code used, only if it is still unused: one conditional UPDATE, so that of any number of
     * concurrent exchanges exactly one sees 1 here.
     */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update AuthorizationRecord a set a.codeUsedAt = :now where a.id = :id and a.codeUsedAt is null")
    int markCodeUsed(@Param("id") String id, @Param("now") Instant now);

    /** Removes authorizations whose code expired before {@code cutoff}: used or not, they can do nothing more. */
    @Modifying
    @Query("delete from AuthorizationRecord a where a.codeExpiresAt < :cutoff")
    int deleteExpiredBefore(@Param("cutoff") Instant cutoff);
}
