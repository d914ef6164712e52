package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

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
}
