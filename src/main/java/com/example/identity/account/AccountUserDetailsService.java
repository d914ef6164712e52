package com.example.identity.account;

import java.time.Clock;

import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsPasswordService;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Looks users up by e-mail for the login form, and stores a new hash of a proven password when the stored
 * one is weaker than today's setting ({@link UserDetailsPasswordService}: Spring Security's
 * {@code DaoAuthenticationProvider} calls it after a successful login whose hash
 * {@code PasswordEncoder.upgradeEncoding} flags, such as the bcrypt, Argon2i and salted SHA-256 hashes
 * imported from the system this service replaces, {@link ImportedPasswordHashes}).
 */
@Service
class AccountUserDetailsService implements UserDetailsService, UserDetailsPasswordService {

    private final UserAccountRepository users;
    private final Clock clock;

    AccountUserDetailsService(UserAccountRepository users, Clock clock) {
        this.users = users;
        this.clock = clock;
    }

    @Override
    @Transactional(readOnly = true)
    public UserDetails loadUserByUsername(String username) {
        if (username == null || username.isBlank() || username.length() > 254) {
            throw new UsernameNotFoundException("not found");
        }
        return users.findByCorreo(UserAccount.normalizeEmail(username))
                .map(user -> AccountPrincipal.forLogin(user, clock.instant()))
                .orElseThrow(() -> new UsernameNotFoundException("not found"));
    }

    /** {@code newPassword} is already encoded ({@code {argon2}$argon2id$...}). */
    @Override
    @Transactional
    public UserDetails updatePassword(UserDetails user, String newPassword) {
        long id = ((AccountPrincipal) user).id();
        return users.findById(id).map(account -> {
            account.upgradePasswordHash(newPassword, clock.instant());
            return (UserDetails) AccountPrincipal.of(account);
        }).orElse(user);
    }
}
