package com.example.identity.recovery;

import java.time.Instant;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface PasswordResetRepository extends JpaRepository<PasswordReset, Long> {

    Optional<PasswordReset> findByTokenDigest(String tokenDigest);

    @Query("select count(r) from PasswordReset r where r.userId = :userId and r.createdAt > :since")
    long countSentSince(@Param("userId") long userId, @Param("since") Instant since);

    /** Spends a link: 1 when it was still usable, 0 when another request used it first or it expired. */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update PasswordReset r set r.usedAt = :now where r.id = :id and r.usedAt is null and r.expiresAt > :now")
    int use(@Param("id") long id, @Param("now") Instant now);

    /** Every other live link of the account ends with the one that was used. */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("update PasswordReset r set r.usedAt = :now where r.userId = :userId and r.usedAt is null")
    int endAll(@Param("userId") long userId, @Param("now") Instant now);

    @Modifying
    @Query("delete from PasswordReset r where r.expiresAt < :cutoff")
    int deleteExpiredBefore(@Param("cutoff") Instant cutoff);
}
