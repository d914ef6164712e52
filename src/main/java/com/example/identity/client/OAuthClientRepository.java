package com.example.identity.client;

import java.util.List;
import java.util.Optional;

import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.repository.query.Param;
import org.springframework.data.jpa.repository.Query;

interface OAuthClientRepository extends JpaRepository<OAuthClient, Long> {

    Optional<OAuthClient> findByClientId(String clientId);

    List<OAuthClient> findByOwnerIdOrderByCreatedAtDesc(long ownerId);

    List<OAuthClient> findAllByOrderByCreatedAtDesc();

    /** A page of every application, newest first (index ix_oauth_clients_created, V11). */
    Slice<OAuthClient> findAllByOrderByCreatedAtDescIdDesc(Pageable page);

    /** A page of one owner's applications, newest first (index ix_oauth_clients_owner_created, V11). */
    Slice<OAuthClient> findByOwnerIdOrderByCreatedAtDescIdDesc(long ownerId, Pageable page);

    /**
     * Applications whose name or client id contains the pattern, or owned by account {@code ownerId} (the one whose
     * e-mail was searched, asked of account/; -1 for none).
     */
    @Query("""
            select c from OAuthClient c
            where lower(c.name) like :pattern escape '\\' or lower(c.clientId) like :pattern escape '\\'
                or c.ownerId = :ownerId
            order by c.createdAt desc, c.id desc
            """)
    Slice<OAuthClient> search(@Param("pattern") String pattern, @Param("ownerId") long ownerId, Pageable page);

    /** The same within one owner's applications. */
    @Query("""
            select c from OAuthClient c
            where c.ownerId = :ownerId and (lower(c.name) like :pattern escape '\\' or lower(c.clientId) like :pattern escape '\\')
            order by c.createdAt desc, c.id desc
            """)
    Slice<OAuthClient> searchOwn(@Param("ownerId") long ownerId, @Param("pattern") String pattern, Pageable page);
}
