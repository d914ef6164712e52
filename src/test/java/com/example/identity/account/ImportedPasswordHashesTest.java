package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
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
}
