package com.example.identity.account;

import java.time.Clock;
import java.util.Optional;

import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Creates and changes accounts. Every other feature goes through here, never to the repository. */
@Service
public class AccountService {

    private final UserAccountRepository users;
    private final PasswordEncoder passwordEncoder;
    private final Clock clock;

    AccountService(UserAccountRepository users, PasswordEncoder passwordEncoder, Clock clock) {
        this.users = users;
        this.passwordEncoder = passwordEncoder;
        this.clock = clock;
    }

    /**
     * Creates an account with a freshly hashed password.
     *
     * @throws EmailAlreadyUsedException when the e-mail address (compared case-insensitively) is taken
     */
    @Transactional
    public UserAccount create(String primerNombre, String correo, String rawPassword, Role rol) {
        String normalized = UserAccount.normalizeEmail(correo);
        if (users.existsByCorreo(normalized)) {
            throw new EmailAlreadyUsedException();
        }
        return users.save(new UserAccount(primerNombre.strip(), normalized, passwordEncoder.encode(rawPassword), rol,
                clock.instant()));
    }

    @Transactional(readOnly = true)
    public Optional<UserAccount> findById(long id) {
        return users.findById(id);
    }

    @Transactional(readOnly = true)
    public Optional<UserAccount> findByEmail(String correo) {
        return users.findByCorreo(UserAccount.normalizeEmail(correo));
    }

    @Transactional(readOnly = true)
    public boolean isEmpty() {
        return users.count() == 0;
    }

    /** Thrown when an account with the same e-mail address already exists. */
    public static class EmailAlreadyUsedException extends RuntimeException {
        EmailAlreadyUsedException() {
            super("correo ya registrado");
        }
    }
}
