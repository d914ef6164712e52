package com.example.identity.apitoken;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

interface ApiTokenRepository extends JpaRepository<ApiToken, Long> {

    Optional<ApiToken> findByTokenDigest(String tokenDigest);

    List<ApiToken> findByUserIdOrderByCreatedAtDesc(long userId);

    List<ApiToken> findAllByOrderByCreatedAtDesc();

    /** A page of every token, newest first (index ix_api_tokens_created, V11). */
    Slice<ApiToken> findAllByOrderByCreatedAtDescIdDesc(Pageable page);

    /** A page of one owner's tokens, newest first (index ix_api_tokens_user_created, V11). */
    Slice<ApiToken> findByUserIdOrderByCreatedAtDescIdDesc(long userId, Pageable page);

    /**
     * Tokens whose name contains the pattern, issued to the client {@code exact}, or owned by account {@code userId}
     * (the one whose e-mail was searched, asked of account/; -1 for none).
     */
    @Query("""
            select t from ApiToken t
            where lower(t.name) like :pattern escape '\\' or t.clientId = :exact or t.userId = :userId
            order by t.createdAt desc, t.id desc
            """)
    Slice<ApiToken> search(@Param("pattern") String pattern, @Param("exact") String exact, @Param("userId") long userId,
            Pageable page);

    /** The same within one owner's tokens. */
    @Query("""
            select t from ApiToken t
            where t.userId = :userId and (lower(t.name) like :pattern escape '\\' or t.clientId = :exact)
            order by t.createdAt desc, t.id desc
            """)
    Slice<ApiToken> searchOwn(@Param("userId") long userId, @Param("pattern") String pattern, @Param("exact") String exact,
            Pageable page);

    @Modifying
    @Query("update ApiToken t set t.revokedAt = :now where t.authorizationId = :authorizationId and t.revokedAt is null")
    int revokeByAuthorization(@Param("authorizationId") String authorizationId, @Param("now") Instant now);

    @Modifying
    @Query("update ApiToken t set t.revokedAt = :now where t.clientId = :clientId and t.revokedAt is null")
    int revokeByClient(@Param("clientId") String clientId, @Param("now") Instant now);

    @Modifying
    @Query("""
            update ApiToken t set t.revokedAt = :now
            where t.clientId = :clientId and t.userId = :userId and t.revokedAt is null
            """)
    int revokeByClientAndUser(@Param("clientId") String clientId, @Param("userId") long userId,
            @Param("now") Instant now);

    @Modifying
    @Query("update ApiToken t set t.revokedAt = :now where t.userId = :userId and t.kind <> :kind and t.revokedAt is null")
    int revokeByUserExceptKind(@Param("userId") long userId, @Param("kind") TokenKind kind, @Param("now") Instant now);

    @Modifying
    @Query("update ApiToken t set t.revokedAt = :now where t.userId = :userId and t.kind = :kind and t.revokedAt is null")
    int revokeKindByUser(@Param("userId") long userId, @Param("kind") TokenKind kind, @Param("now") Instant now);

    /** Tokens revoked, or expired, before {@code cutoff}: they can do nothing more. */
    @Modifying
    @Query("delete from ApiToken t where t.revokedAt < :cutoff or t.expiresAt < :cutoff")
    int deleteEndedBefore(@Param("cutoff") Instant cutoff);

    /** Records a use at most once per {@code cutoff} window: no write when the stored time is recent. */
    @Transactional
    @Modifying
    @Query("update ApiToken t set t.lastUsedAt = :now where t.id = :id and (t.lastUsedAt is null or t.lastUsedAt < :cutoff)")
    int touch(@Param("id") long id, @Param("now") Instant now, @Param("cutoff") Instant cutoff);
}
