package com.example.identity.account;

import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Passwords are the only secrets that need a slow hash (decisions §3, §4). New hashes are Argon2id with
 * OWASP's first recommended setting: 19 MiB of memory, 2 iterations, parallelism 1. Hashes carry their
 * algorithm id ({@code {argon2}...}), so the setting can be raised later without breaking old hashes;
 * {@code {bcrypt}} is accepted for accounts imported from older systems.
 */
@Configuration(proxyBeanMethods = false)
class PasswordHashingConfig {

    static final int SALT_LENGTH = 16;
    static final int HASH_LENGTH = 32;
    static final int PARALLELISM = 1;
    static final int MEMORY_KIB = 19 * 1024;
    static final int ITERATIONS = 2;

    @Bean
    PasswordEncoder passwordEncoder() {
        var argon2 = new Argon2PasswordEncoder(SALT_LENGTH, HASH_LENGTH, PARALLELISM, MEMORY_KIB, ITERATIONS);
        return new DelegatingPasswordEncoder("argon2", Map.of(
                "argon2", argon2,
                "bcrypt", new BCryptPasswordEncoder()));
    }
}
