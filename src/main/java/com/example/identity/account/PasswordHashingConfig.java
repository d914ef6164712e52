package com.example.identity.account;

import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Passwords are the only secrets that need a slow hash (decisions §3, §4). New hashes are Argon2id at
 * one of OWASP's recommended settings, which OWASP rates as equally strong: 12 MiB of memory, 3
 * iterations, parallelism 1. Argon2id is memory-hard, so concurrent logins compete for memory
 * bandwidth; measured on the 2-core benchmark machine with 8 concurrent hashes, 12 MiB/3 gives 22
 * hashes a second where 19 MiB/2 gives 16. Each hash carries its parameters and algorithm id
 * ({@code {argon2}$argon2id$v=19$m=...}), so older hashes (19 MiB/2) keep verifying and the setting can be
 * raised later; {@code {bcrypt}} is accepted for accounts imported from older systems.
 */
@Configuration(proxyBeanMethods = false)
class PasswordHashingConfig {

    static final int SALT_LENGTH = 16;
    static final int HASH_LENGTH = 32;
    static final int PARALLELISM = 1;
    static final int MEMORY_KIB = 12 * 1024;
    static final int ITERATIONS = 3;

    @Bean
    PasswordEncoder passwordEncoder() {
        var argon2 = new Argon2PasswordEncoder(SALT_LENGTH, HASH_LENGTH, PARALLELISM, MEMORY_KIB, ITERATIONS);
        return new DelegatingPasswordEncoder("argon2", Map.of(
                "argon2", argon2,
                "bcrypt", new BCryptPasswordEncoder()));
    }
}
