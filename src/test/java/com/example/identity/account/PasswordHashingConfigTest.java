package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

class PasswordHashingConfigTest {

    @Test
    void newHashesAreArgon2idAtTheConfiguredSettingAndOlderHashesStillVerify() throws Exception {
        try (var encoder = (BoundedPasswordEncoder) new PasswordHashingConfig().build(0, new ImportSettings(false))) {
            String hash = encoder.encode("a password");
            assertThat(hash).startsWith("{argon2}$argon2id$v=19$m=12288,t=3,p=1$");
            assertThat(encoder.matches("a password", hash)).isTrue();
            assertThat(encoder.matches("a passworD", hash)).isFalse();
            assertThat(encoder.upgradeEncoding(hash)).isFalse();

            String older = "{argon2}" + new Argon2PasswordEncoder(16, 32, 1, 19 * 1024, 2).encode("a password");
            assertThat(encoder.matches("a password", older)).isTrue();
            assertThat(encoder.matches("another", older)).isFalse();
            assertThat(encoder.upgradeEncoding(older)).isTrue();
            assertThat(encoder.matches("a password", "{bcrypt}" + new BCryptPasswordEncoder().encode("a password"))).isTrue();
        }
    }
}
