package com.example.identity.account;

import java.util.Map;

import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Passwords are the only secrets that need a slow hash (decisions §3, §4). New hashes are Argon2id at
 * one of OWASP's recommended settings, which OWASP rates as equally strong: 12 MiB of memory, 3
 * iterations, parallelism 1. Each hash carries its parameters and algorithm id
 * ({@code {argon2}$argon2id$v=19$m=...}), so older hashes (19 MiB/2) keep verifying and the setting can be
 * raised later. Hashes imported from the system this service replaces ({@link ImportedPasswordHashes}:
 * {@code {bcrypt}}, {@code {argon2-imported}} for Argon2i/Argon2id PHC strings, {@code {sha256-salted}}
 * when {@code identity.import.legacy-sha256} is on) verify too, and are rehashed to today's setting at the
 * first login that proves them ({@code upgradeEncoding} is true for every id but {@code argon2}).
 * <p>
 * The hashing itself is the reference C implementation where it loads ({@link NativeArgon2idPasswordEncoder},
 * the same hashes as BouncyCastle's, about twice the throughput on two cores), on one platform thread per
 * core ({@link BoundedPasswordEncoder}).
 */
@Configuration(proxyBeanMethods = false)
class PasswordHashingConfig {

    static final int SALT_LENGTH = 16;
    static final int HASH_LENGTH = 32;
    static final int PARALLELISM = 1;
    static final int MEMORY_KIB = 12 * 1024;
    static final int ITERATIONS = 3;

    @Bean
    PasswordEncoder passwordEncoder(ImportSettings importSettings) {
        PasswordEncoder argon2 = NativeArgon2idPasswordEncoder
                .load(SALT_LENGTH, HASH_LENGTH, PARALLELISM, MEMORY_KIB, ITERATIONS)
                .<PasswordEncoder>map(encoder -> encoder)
                .orElseGet(() -> new Argon2PasswordEncoder(SALT_LENGTH, HASH_LENGTH, PARALLELISM, MEMORY_KIB, ITERATIONS));
        LoggerFactory.getLogger(PasswordHashingConfig.class).info("Password hashing: Argon2id m={} KiB, t={}, p={} ({})",
                MEMORY_KIB, ITERATIONS, PARALLELISM, argon2 instanceof NativeArgon2idPasswordEncoder ? "native" : "Java");
        var delegating = new DelegatingPasswordEncoder("argon2", Map.of(
                "argon2", argon2,
                ImportedPasswordHashes.BCRYPT_ID, new BCryptPasswordEncoder(),
                // the same encoder: it reads the type and parameters of each PHC string (argon2i included)
                ImportedPasswordHashes.ARGON2_ID, argon2,
                ImportedPasswordHashes.SHA256_ID, new LegacySaltedSha256PasswordEncoder(importSettings.legacySha256())));
        return new BoundedPasswordEncoder(delegating, Runtime.getRuntime().availableProcessors());
    }
}
