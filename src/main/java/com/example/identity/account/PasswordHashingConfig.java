package com.example.identity.account;

import java.util.Map;

import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

import com.example.identity.IdentityProperties;

/**
 * Passwords are the only secrets that need a slow hash (decisions §3, §4). New hashes are Argon2id at
 * one of OWASP's recommended settings, which OWASP rates as equally strong: 12 MiB of memory, 3
 * iterations, parallelism 1. Each hash carries its parameters and algorithm id
 * ({@code {argon2}$argon2id$v=19$m=...}), so older hashes (19 MiB/2) keep verifying and the setting can be
 * raised later. Hashes imported from the system this service replaces ({@link ImportedPasswordHashes}:
 * {@code {bcrypt}}, {@code {argon2-imported}} for Argon2i/Argon2id PHC strings, {@code {sha256-salted}}
 * when {@code identity.import.legacy-sha256} is on) verify too, and are rehashed to today's setting at the
 * first login that proves them ({@code upgradeEncoding} is true for every id but {@code argon2}). A stored
 * bcrypt or Argon2 hash above the cost caps of {@link ImportedPasswordHashes} never matches and is never
 * computed ({@link CostCappedPasswordEncoder}).
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
    PasswordEncoder passwordEncoder(IdentityProperties properties, ImportSettings importSettings) {
        return build(properties.passwordHashing().maxQueued(), importSettings);
    }

    /**
     * @param maxQueued hashes allowed to wait; 0: as many as the cores hash in {@link #QUEUE_SECONDS}
     *     seconds, measured with one hash now
     * @param importSettings which hash forms imported from the system this service replaces are accepted
     */
    PasswordEncoder build(int maxQueued, ImportSettings importSettings) {
        PasswordEncoder argon2 = NativeArgon2idPasswordEncoder
                .load(SALT_LENGTH, HASH_LENGTH, PARALLELISM, MEMORY_KIB, ITERATIONS)
                .<PasswordEncoder>map(encoder -> encoder)
                .orElseGet(() -> new Argon2PasswordEncoder(SALT_LENGTH, HASH_LENGTH, PARALLELISM, MEMORY_KIB, ITERATIONS));
        LoggerFactory.getLogger(PasswordHashingConfig.class).info("Password hashing: Argon2id m={} KiB, t={}, p={} ({})",
                MEMORY_KIB, ITERATIONS, PARALLELISM, argon2 instanceof NativeArgon2idPasswordEncoder ? "native" : "Java");
        // every hash that carries its own cost is verified only within the caps (ImportedPasswordHashes)
        PasswordEncoder cappedArgon2 = new CostCappedPasswordEncoder(argon2);
        var delegating = new DelegatingPasswordEncoder("argon2", Map.of(
                "argon2", cappedArgon2,
                ImportedPasswordHashes.BCRYPT_ID, new CostCappedPasswordEncoder(new BCryptPasswordEncoder()),
                // the same encoder: it reads the type and parameters of each PHC string (argon2i included)
                ImportedPasswordHashes.ARGON2_ID, cappedArgon2,
                ImportedPasswordHashes.SHA256_ID, new LegacySaltedSha256PasswordEncoder(importSettings.legacySha256())));
        int threads = Runtime.getRuntime().availableProcessors();
        int bound = maxQueued > 0 ? maxQueued : queueFor(argon2, threads);
        LoggerFactory.getLogger(PasswordHashingConfig.class).info(
                "Password hashing: {} threads, at most {} waiting (identity.password-hashing.max-queued)", threads, bound);
        return new BoundedPasswordEncoder(delegating, threads, bound);
    }

    /** The queue is sized to what the cores hash in this many seconds. */
    static final int QUEUE_SECONDS = 2;

    /** As many hashes as {@code threads} finish in {@link #QUEUE_SECONDS}, timed on the fastest of three (at least one per thread). */
    private static int queueFor(PasswordEncoder argon2, int threads) {
        argon2.encode("warm-up"); // the first hash loads the native library and touches fresh memory
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) { // the fastest of three: the start keeps the cores busy with other work
            long start = System.nanoTime();
            argon2.encode("calibration");
            best = Math.min(best, System.nanoTime() - start);
        }
        long millis = Math.max(1, best / 1_000_000);
        return (int) Math.max(threads, Math.min(10_000, threads * QUEUE_SECONDS * 1000L / millis));
    }
}
