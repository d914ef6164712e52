package com.example.identity.account;

import java.util.List;
import java.util.Optional;

import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface UserAccountRepository extends JpaRepository<UserAccount, Long> {

    /** {@code correo} must already be normalized with {@link UserAccount#normalizeEmail(String)}. */
    Optional<UserAccount> findByCorreo(String correo);

    boolean existsByCorreo(String correo);

    /** An account, its row locked until the transaction ends (a guest's conversion, decisions §24). */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select u from UserAccount u where u.id = :id")
    Optional<UserAccount> lockById(@Param("id") long id);

    /** A page of every account, by id (the primary key). */
    Slice<UserAccount> findAllByOrderByIdAsc(Pageable page);

    /** Accounts whose e-mail or name contains the pattern (pg_trgm indexes on PostgreSQL, V11). */
    @Query("""
            select u from UserAccount u
            where u.correo like :pattern escape '\\' or lower(u.primerNombre) like :pattern escape '\\'
            order by u.id
            """)
    Slice<UserAccount> search(@Param("pattern") String pattern, Pageable page);

    /** The e-mail addresses of some accounts (the owners shown on one page). */
    @Query("select u.id as id, u.correo as correo from UserAccount u where u.id in :ids")
    List<IdAndEmail> findEmails(@Param("ids") java.util.Collection<Long> ids);

    interface IdAndEmail {
        Long getId();

        String getCorreo();
    }
}
