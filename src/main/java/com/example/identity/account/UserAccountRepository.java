package com.example.identity.account;

import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;

public interface UserAccountRepository extends JpaRepository<UserAccount, Long> {

    /** {@code correo} must already be normalized with {@link UserAccount#normalizeEmail(String)}. */
    Optional<UserAccount> findByCorreo(String correo);

    boolean existsByCorreo(String correo);
}
