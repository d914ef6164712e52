package com.example.identity.mfa;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.apache.commons.codec.binary.Base32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 6238 Appendix B's test vectors (SHA-1 key), and the window and format rules of {@link Totp}. */
class TotpTest {

    static final byte[] RFC_KEY = "12345678901234567890".getBytes(StandardCharsets.US_ASCII);

    @ParameterizedTest
    @CsvSource({ "59, 94287082", "1111111109, 07081804", "1111111111, 14050471", "1234567890, 89005924",
            "2000000000, 69279037", "20000000000, 65353130" })
    void rfc6238Vectors(long time, String eightDigits) {
        // the RFC prints 8 digits; 6-digit codes are their last 6 (the same truncation, modulo 10^6)
        assertThat(Totp.code(RFC_KEY, time / 30, "HmacSHA1")).isEqualTo(eightDigits.substring(2));
    }

    @Test
    void aCodeIsAcceptedForItsStepAndItsNeighboursOnly() {
        String secret = new Base32().encodeToString(RFC_KEY).replace("=", "");
        Instant now = Instant.ofEpochSecond(1_111_111_111L);
        long step = Totp.step(now);
        assertThat(Totp.matchingStep(secret, Totp.code(secret, step), now)).hasValue(step);
        assertThat(Totp.matchingStep(secret, Totp.code(secret, step - 1), now)).hasValue(step - 1);
        assertThat(Totp.matchingStep(secret, Totp.code(secret, step + 1), now)).hasValue(step + 1);
        assertThat(Totp.matchingStep(secret, Totp.code(secret, step + 2), now)).isEmpty();
        assertThat(Totp.matchingStep(secret, Totp.code(secret, step - 2), now)).isEmpty();
        assertThat(Totp.matchingStep(secret, "12345", now)).isEmpty();
        assertThat(Totp.matchingStep(secret, "abcdef", now)).isEmpty();
        assertThat(Totp.matchingStep(secret, null, now)).isEmpty();
    }

    @Test
    void secretsAre160BitsInBase32AndTheUriIsWhatAppsRead() {
        String secret = Totp.newSecret();
        assertThat(secret).matches("[A-Z2-7]{32}");
        assertThat(new Base32().decode(secret)).hasSize(20);
        assertThat(Totp.uri("Identidad", "ana@example.com", secret)).isEqualTo("otpauth://totp/Identidad%3Aana%40example.com?secret="
                + secret + "&issuer=Identidad&algorithm=SHA1&digits=6&period=30");
    }

    @Test
    void theQrCodeIsAnSvgOfModulesOnly() {
        String svg = QrCodes.svg("otpauth://totp/Identidad%3A%3Cscript%3E?secret=ABC");
        assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"").doesNotContain("script")
                .matches("(?s).*d=\"(M\\d+ \\d+h1v1h-1z)+\".*");
    }
}
