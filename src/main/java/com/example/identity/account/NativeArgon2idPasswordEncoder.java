package com.example.identity.account;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.password.AbstractValidatingPasswordEncoder;

import de.mkammerer.argon2.Argon2Advanced;
import de.mkammerer.argon2.Argon2Factory;
import de.mkammerer.argon2.Argon2Factory.Argon2Types;

/**
 * Argon2id computed by the reference C implementation (argon2-jvm over JNA), producing and reading the
 * same PHC strings as Spring Security's {@link Argon2PasswordEncoder} ({@code $argon2id$v=19$m=..,t=..,p=..$salt$hash}),
 * so either can verify what the other wrote. On the 2-core benchmark machine it computes a 12 MiB/3
 * hash in 25 ms where BouncyCastle's pure-Java one takes 37 ms, and its memory is malloc'd and freed
 * per hash instead of churning the Java heap. Imported Argon2i hashes ({@link ImportedPasswordHashes}) are
 * verified natively too: PHP's default for them is 64 MiB, which in Java is 64 MiB of heap per verification,
 * and two at once do not fit the service's 112 MiB heap (an {@code OutOfMemoryError}, measured). Anything
 * else (argon2d) goes to the Java encoder, which also decides when a stored hash is weaker than today's
 * setting.
 */
final class NativeArgon2idPasswordEncoder extends AbstractValidatingPasswordEncoder {

    private static final Logger log = LoggerFactory.getLogger(NativeArgon2idPasswordEncoder.class);
    private static final String ARGON2ID_PREFIX = "$argon2id$";
    private static final String ARGON2I_PREFIX = "$argon2i$";

    private final Argon2Advanced argon2;
    /** Verifies imported Argon2i hashes; never writes one. */
    private final Argon2Advanced argon2i;
    private final Argon2PasswordEncoder java;
    private final int memoryKib;
    private final int iterations;
    private final int parallelism;

    private NativeArgon2idPasswordEncoder(Argon2Advanced argon2, Argon2Advanced argon2i, Argon2PasswordEncoder java,
            int memoryKib, int iterations, int parallelism) {
        this.argon2 = argon2;
        this.argon2i = argon2i;
        this.java = java;
        this.memoryKib = memoryKib;
        this.iterations = iterations;
        this.parallelism = parallelism;
    }

    /**
     * The native encoder when the bundled library loads on this platform and agrees with the Java one on
     * a known hash; empty otherwise (an unusual CPU or OS, or a temporary directory JNA cannot use).
     */
    static Optional<NativeArgon2idPasswordEncoder> load(int saltLength, int hashLength, int parallelism,
            int memoryKib, int iterations) {
        var java = new Argon2PasswordEncoder(saltLength, hashLength, parallelism, memoryKib, iterations);
        try {
            var encoder = new NativeArgon2idPasswordEncoder(
                    Argon2Factory.createAdvanced(Argon2Types.ARGON2id, saltLength, hashLength),
                    Argon2Factory.createAdvanced(Argon2Types.ARGON2i, saltLength, hashLength), java,
                    memoryKib, iterations, parallelism);
            // a cheap setting for the self-test: both implementations must agree in both directions
            var cheap = new Argon2PasswordEncoder(saltLength, hashLength, 1, 64, 1);
            String byJava = cheap.encode("self-test");
            String byNative = encoder.argon2.hash(1, 64, 1, "self-test".getBytes(StandardCharsets.UTF_8));
            String byNativeI = encoder.argon2i.hash(1, 64, 1, "self-test".getBytes(StandardCharsets.UTF_8));
            if (encoder.matches("self-test", byJava) && !encoder.matches("other", byJava)
                    && cheap.matches("self-test", byNative) && byNativeI.startsWith(ARGON2I_PREFIX)
                    && cheap.matches("self-test", byNativeI) && encoder.matches("self-test", byNativeI)
                    && !encoder.matches("other", byNativeI)) {
                return Optional.of(encoder);
            }
            log.warn("Native Argon2 disagrees with the Java implementation; hashing passwords in Java");
        }
        catch (LinkageError | RuntimeException ex) {
            log.warn("Native Argon2 unavailable ({}); hashing passwords in Java", ex.toString());
        }
        return Optional.empty();
    }

    @Override
    protected String encodeNonNullPassword(String rawPassword) {
        byte[] password = rawPassword.getBytes(StandardCharsets.UTF_8);
        try {
            return argon2.hash(iterations, memoryKib, parallelism, password);
        }
        finally {
            argon2.wipeArray(password);
        }
    }

    @Override
    protected boolean matchesNonNull(String rawPassword, String encodedPassword) {
        Argon2Advanced verifier = encodedPassword.startsWith(ARGON2ID_PREFIX) ? argon2
                : encodedPassword.startsWith(ARGON2I_PREFIX) ? argon2i : null;
        if (verifier == null) {
            return java.matches(rawPassword, encodedPassword);
        }
        byte[] password = rawPassword.getBytes(StandardCharsets.UTF_8);
        try {
            return verifier.verify(encodedPassword, password);
        }
        catch (RuntimeException malformed) {
            return false;
        }
        finally {
            argon2.wipeArray(password);
        }
    }

    @Override
    protected boolean upgradeEncodingNonNull(String encodedPassword) {
        return java.upgradeEncoding(encodedPassword);
    }
}
