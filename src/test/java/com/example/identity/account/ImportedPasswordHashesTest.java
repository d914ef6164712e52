package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

class ImportedPasswordHashesTest {

    private static String stored(String exported, boolean legacy) {
        var result = ImportedPasswordHashes.toStored(exported, legacy);
        assertThat(result).isInstanceOf(ImportedPasswordHashes.Stored.class);
        return ((ImportedPasswordHashes.Stored) result).passwordHash();
    }

    private static String refused(String exported, boolean legacy) {
        var result = ImportedPasswordHashes.toStored(exported, legacy);
        assertThat(result).isInstanceOf(ImportedPasswordHashes.Refused.class);
        return ((ImportedPasswordHashes.Refused) result).reason();
    }

    @Test
    void everyImportedFormVerifiesAndIsMarkedForRehashingWhileTodaysArgon2idIsNot() throws Exception {
        String salted = "sha256$NaCl$" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest("NaClclave-antigua".getBytes(StandardCharsets.UTF_8)));
        try (var encoder = (BoundedPasswordEncoder) new PasswordHashingConfig().build(0, new ImportSettings(true))) {
            for (var version : BCryptPasswordEncoder.BCryptVersion.values()) {
                String bcrypt = new BCryptPasswordEncoder(version, 4).encode("clave-antigua");
                assertThat(bcrypt).startsWith(version.getVersion() + "$04$");
                String hash = stored(bcrypt, false);
                assertThat(hash).isEqualTo("{bcrypt}" + bcrypt);
                assertThat(encoder.matches("clave-antigua", hash)).isTrue();
                assertThat(encoder.matches("clave-nueva", hash)).isFalse();
                assertThat(encoder.upgradeEncoding(hash)).isTrue();
            }
            // PHP's default argon2id setting (64 MiB, t=4): stronger than today's, still moved to today's
            String argon2id = new Argon2PasswordEncoder(16, 32, 1, 65536, 4).encode("clave-antigua");
            String hash = stored(argon2id, false);
            assertThat(hash).isEqualTo("{argon2-imported}" + argon2id);
            assertThat(encoder.matches("clave-antigua", hash)).isTrue();
            assertThat(encoder.matches("clave-nueva", hash)).isFalse();
            assertThat(encoder.upgradeEncoding(hash)).isTrue();

            String legacy = stored(salted, true);
            assertThat(legacy).isEqualTo("{sha256-salted}" + salted);
            assertThat(encoder.matches("clave-antigua", legacy)).isTrue();
            assertThat(encoder.matches("clave-nueva", legacy)).isFalse();
            assertThat(encoder.upgradeEncoding(legacy)).isTrue();

            assertThat(encoder.upgradeEncoding(encoder.encode("clave-antigua"))).isFalse();
        }
        // off (the default): refused at import, and a stored one never matches
        assertThat(refused(salted, false)).startsWith("hash sha256$ salado no admitido");
        try (var encoder = (BoundedPasswordEncoder) new PasswordHashingConfig().build(0, new ImportSettings(false))) {
            assertThat(encoder.matches("clave-antigua", "{sha256-salted}" + salted)).isFalse();
        }
    }

    @Test
    void hashesTheServiceDoesNotKnowAreRefused() {
        for (String unknown : new String[] { "", "5f4dcc3b5aa765d61d8327deb882cf99", "$1$saltsalt$abcdefghijklmnopqrstuv",
                "$2x$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", "$2y$10$short",
                "$argon2d$v=19$m=65536,t=4,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA",
                "{bcrypt}$2y$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", "sha256$$abc" }) {
            assertThat(ImportedPasswordHashes.toStored(unknown, true)).as(unknown).isInstanceOf(ImportedPasswordHashes.Refused.class);
        }
    }

    /** A real bcrypt hash of "clave" at cost 4, with its cost field set to {@code cost}. */
    private static String bcryptAt(String cost) {
        return new BCryptPasswordEncoder(BCryptPasswordEncoder.BCryptVersion.$2Y, 4).encode("clave")
                .replaceFirst("^\\$2y\\$04\\$", "\\$2y\\$" + cost + "\\$");
    }

    private static final String SALT_AND_HASH = "$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA";

    @Test
    void hashesAboveTheCostCapsAreRefusedAtImportNamingTheirCostAndTheCap() {
        assertThat(refused(bcryptAt("31"), false)).isEqualTo(
                "coste bcrypt 31 por encima del máximo admitido (14); restablece esa contraseña tras el cambio");
        assertThat(refused(bcryptAt("15"), false)).startsWith("coste bcrypt 15 por encima del máximo admitido (14)");
        assertThat(refused("$argon2i$v=19$m=4194304,t=3,p=1" + SALT_AND_HASH, false)).isEqualTo(
                "coste argon2 m=4194304,t=3,p=1 por encima del máximo admitido (m=65536,t=10,p=8); "
                        + "restablece esa contraseña tras el cambio");
        assertThat(refused("$argon2id$v=19$m=65536,t=11,p=1" + SALT_AND_HASH, false))
                .startsWith("coste argon2 m=65536,t=11,p=1 por encima");
        assertThat(refused("$argon2id$v=19$m=65536,t=4,p=9" + SALT_AND_HASH, false))
                .startsWith("coste argon2 m=65536,t=4,p=9 por encima");
        assertThat(refused("$argon2id$v=19$m=65537,t=4,p=1" + SALT_AND_HASH, false))
                .startsWith("coste argon2 m=65537,t=4,p=1 por encima");
        // the caps themselves are accepted
        assertThat(stored(bcryptAt("14"), false)).startsWith("{bcrypt}$2y$14$");
        assertThat(stored("$argon2id$v=19$m=65536,t=10,p=8" + SALT_AND_HASH, false))
                .startsWith("{argon2-imported}$argon2id$v=19$m=65536,t=10,p=8$");
    }

    @Test
    void aStoredHashAboveTheCapsNeverMatchesAndIsNeverComputed() throws Exception {
        try (var encoder = (BoundedPasswordEncoder) new PasswordHashingConfig().build(0, new ImportSettings(false))) {
            // cost 31 would hold a hashing thread for about a day, 4 GiB would not fit: both refused at once
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                for (String tooCostly : new String[] { "{bcrypt}" + bcryptAt("31"), "{bcrypt}" + bcryptAt("20"),
                        "{argon2-imported}$argon2i$v=19$m=4194304,t=3,p=1" + SALT_AND_HASH,
                        "{argon2-imported}$argon2id$v=19$m=4194304,t=3,p=1" + SALT_AND_HASH,
                        "{argon2}$argon2id$v=19$m=4194304,t=3,p=1" + SALT_AND_HASH,
                        "{argon2}$argon2id$v=19$t=3,m=4194304,p=1" + SALT_AND_HASH,
                        "{argon2}$argon2id$v=19$m=12288,t=100000,p=1" + SALT_AND_HASH }) {
                    assertThat(encoder.matches("clave", tooCostly)).as(tooCostly).isFalse();
                }
            });
            // within the caps, the same encoders verify as before
            String atCap = "{bcrypt}" + new BCryptPasswordEncoder(BCryptPasswordEncoder.BCryptVersion.$2Y, 4).encode("clave");
            assertThat(encoder.matches("clave", atCap)).isTrue();
        }
    }
}
