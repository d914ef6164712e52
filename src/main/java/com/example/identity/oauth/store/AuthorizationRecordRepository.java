package com.example.identity.oauth.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface AuthorizationRecordRepository extends JpaRepository<AuthorizationRecord, String> {

    Optional<AuthorizationRecord> findByCodeDigest(String codeDigest);

    /**
     * The record of one authorization (a refresh family), its row locked until the transaction ends
     * ({@code select ... for update}): whatever changes a family's tokens takes this lock first, so a
     * rotation and a revocation of one family never overlap ({@link RefreshTokens}).
     */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select a from AuthorizationRecord a where a.id = :id")
    Optional<AuthorizationRecord> lockById(@Param("id") String id);

    /** Locks the rows of every authorization of one user for one client, in id order (no deadlock between two). */
    @Query(value = "select id from oauth_authorizations where client_id = :clientId and user_id = :userId "
            + "order by id for update", nativeQuery = true)
    List<String> lockByClientAndUser(@Param("clientId") String clientId, @Param("userId") long userId);

    /** Locks the rows of every authorization of one user, in id order (a sanction in every application). */
    @Query(value = "select id from oauth_authorizations where user_id = :userId order by id for update",
            nativeQuery = true)
    List<String> lockByUser(@Param("userId") long userId);

    /**
     * Makes the codes of one user not yet exchanged expire now (a sanction in every application): their exchange
     * answers the contract's {@code Código expirado}. Device flow families have no code and are left alone.
     */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("""
            update AuthorizationRecord a set a.codeExpiresAt = :now
            where a.userId = :userId and a.codeDigest is not null and a.codeUsedAt is null and a.codeExpiresAt > :now
            """)
    int expireCodesOfUser(@Param("userId") long userId, @Param("now") Instant now);

    /** The same for the codes of one user issued to one client (a sanction in that application). */
    @Modifying(flushAutomatically = true, clearAutomatically = true)
    @Query("""
            update AuthorizationRecord a set a.codeExpiresAt = :now where a.userId = :userId and a.clientId = :clientId
                and a.codeDigest is not null and a.codeUsedAt is null and a.codeExpiresAt > :now
            """)
    int expireCodesOfUserAt(@Param("userId") long userId, @Param("clientId") String clientId, @Param("now") Instant now);

    /** Locks the rows of every authorization of one client, in id order. */
    @Query(value = "select id from oauth_authorizations where client_id = :clientId order by id for update",
            nativeQuery = true)
    List<String> lockByClient(@Param("clientId") String clientId);

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
