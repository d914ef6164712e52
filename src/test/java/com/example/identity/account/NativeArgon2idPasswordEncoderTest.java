package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;

class NativeArgon2idPasswordEncoderTest {

    // a cheap setting keeps the test fast; the code path is the same at 12 MiB/3
    private final NativeArgon2idPasswordEncoder nativeEncoder = NativeArgon2idPasswordEncoder.load(16, 32, 1, 256, 2)
            .orElseThrow(() -> new AssertionError("the bundled native Argon2 must load on the build machines"));
    private final Argon2PasswordEncoder javaEncoder = new Argon2PasswordEncoder(16, 32, 1, 256, 2);

    @Test
    void writesTheSamePhcStringsAsSpringSecurity() {
        String hash = nativeEncoder.encode("contraseña con ñ y €");

        assertThat(hash).matches("\\$argon2id\\$v=19\\$m=256,t=2,p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}");
        assertThat(javaEncoder.matches("contraseña con ñ y €", hash)).isTrue();
        assertThat(javaEncoder.matches("contrasena con n y E", hash)).isFalse();
        assertThat(nativeEncoder.encode("contraseña con ñ y €")).isNotEqualTo(hash);
    }

    @Test
    void verifiesWhatSpringSecurityWrote() {
        String hash = javaEncoder.encode("contraseña con ñ y €");

        assertThat(nativeEncoder.matches("contraseña con ñ y €", hash)).isTrue();
        assertThat(nativeEncoder.matches("contraseña con ñ y $", hash)).isFalse();
        assertThat(nativeEncoder.matches("", hash)).isFalse();
    }

    @Test
    void verifiesAKnownHashFromTheReferenceImplementation() {
        // made by Debian's argon2 command-line tool: echo -n password | argon2 somesalt -id -t 2 -k 256 -p 1 -e
        String known = "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4";
        assertThat(nativeEncoder.matches("password", known)).isTrue();
        assertThat(javaEncoder.matches("password", known)).isTrue();
    }

    @Test
    void malformedOrForeignHashesAreNoMatchNotAnError() {
        assertThat(nativeEncoder.matches("password", "$argon2id$v=19$m=256,t=2,p=1$bm90IGJhc2U2NA")).isFalse();
        assertThat(nativeEncoder.matches("password", "$argon2id$garbage")).isFalse();
        assertThat(nativeEncoder.matches("password", "not a hash")).isFalse();
        assertThat(nativeEncoder.matches("password", "")).isFalse();
        assertThat(nativeEncoder.matches("password", null)).isFalse();
    }

    @Test
    void weakerStoredSettingsAskForAnUpgrade() {
        assertThat(nativeEncoder.upgradeEncoding(new Argon2PasswordEncoder(16, 32, 1, 128, 2).encode("p"))).isTrue();
        assertThat(nativeEncoder.upgradeEncoding(nativeEncoder.encode("p"))).isFalse();
    }

    @Test
    void verifiesImportedArgon2iNativelyOffTheJavaHeap() {
        // PHP's default PASSWORD_ARGON2I setting, 64 MiB: in Java (BouncyCastle) each verification takes 64 MiB
        // of heap, and two at once do not fit the service's 112 MiB heap (OutOfMemoryError, measured)
        String phpDefault = argon2i("clave-antigua", 65536, 4);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();

        assertThat(nativeEncoder.matches("clave-antigua", phpDefault)).isTrue();

        assertThat(threads.getCurrentThreadAllocatedBytes() - before).as("bytes of Java heap").isLessThan(1 << 20);
        assertThat(nativeEncoder.matches("clave-nueva", phpDefault)).isFalse();
        assertThat(javaEncoder.matches("clave-antigua", argon2i("clave-antigua", 256, 2))).isTrue();
        assertThat(nativeEncoder.matches("clave-antigua", argon2i("clave-antigua", 256, 2))).isTrue();
    }

    /** Argon2i as PHP's password_hash(PASSWORD_ARGON2I) writes it, by BouncyCastle. */
    private static String argon2i(String password, int memoryKib, int iterations) {
        byte[] salt = "sal-de-dieciseis".getBytes(StandardCharsets.US_ASCII);
        var generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_i).withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(memoryKib).withIterations(iterations).withParallelism(1).withSalt(salt).build());
        byte[] hash = new byte[32];
        generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), hash);
        var b64 = Base64.getEncoder().withoutPadding();
        return "$argon2i$v=19$m=" + memoryKib + ",t=" + iterations + ",p=1$" + b64.encodeToString(salt) + "$"
                + b64.encodeToString(hash);
    }
}
