package com.example.identity.mfa;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.OptionalLong;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.apache.commons.codec.binary.Base32;

/**
 * RFC 6238 time-based one-time passwords as every authenticator app computes them (decisions §17):
 * HMAC-SHA1 (RFC 4226 §5.3 dynamic truncation), 6 digits, 30-second steps from the Unix epoch, secrets of
 * 160 random bits written in Base32 (RFC 4648) as {@code otpauth://} URIs carry them. A code is accepted for
 * its step and the one before and after (a phone's clock that is up to 30 s off, RFC 6238 §5.2).
 */
public final class Totp {

    static final int DIGITS = 6;
    static final long PERIOD_SECONDS = 30;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base32 BASE32 = new Base32();

    private Totp() {
    }

    /** A new secret: 20 random bytes in Base32 (32 characters, no padding). */
    static String newSecret() {
        byte[] key = new byte[20];
        RANDOM.nextBytes(key);
        return BASE32.encodeToString(key).replace("=", "");
    }

    static long step(Instant now) {
        return Math.floorDiv(now.getEpochSecond(), PERIOD_SECONDS);
    }

    /** The code of {@code step} for a Base32 secret, zero-padded to 6 digits. */
    static String code(String secret, long step) {
        return code(BASE32.decode(secret), step, "HmacSHA1");
    }

    /** RFC 4226 §5.3 with the step as the counter; {@code algorithm} for RFC 6238's test vectors. */
    static String code(byte[] key, long step, String algorithm) {
        try {
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(key, algorithm));
            byte[] hash = mac.doFinal(java.nio.ByteBuffer.allocate(8).putLong(step).array());
            int offset = hash[hash.length - 1] & 0x0f;
            int binary = ((hash[offset] & 0x7f) << 24) | ((hash[offset + 1] & 0xff) << 16)
                    | ((hash[offset + 2] & 0xff) << 8) | (hash[offset + 3] & 0xff);
            return String.format("%06d", binary % 1_000_000);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The step whose code {@code typed} is, among the current one and its neighbours; empty when none (or
     * when {@code typed} is not 6 digits). Compared in constant time.
     */
    static OptionalLong matchingStep(String secret, String typed, Instant now) {
        if (typed == null) {
            return OptionalLong.empty();
        }
        String code = typed.replace(" ", "");
        if (!code.matches("\\d{6}")) {
            return OptionalLong.empty();
        }
        long current = step(now);
        for (long step = current - 1; step <= current + 1; step++) {
            if (MessageDigest.isEqual(code(secret, step).getBytes(StandardCharsets.US_ASCII),
                    code.getBytes(StandardCharsets.US_ASCII))) {
                return OptionalLong.of(step);
            }
        }
        return OptionalLong.empty();
    }

    /** The {@code otpauth://totp/} URI an authenticator app reads from the QR code. */
    static String uri(String issuer, String account, String secret) {
        String label = URLEncoder.encode(issuer + ":" + account, StandardCharsets.UTF_8).replace("+", "%20");
        return "otpauth://totp/" + label + "?secret=" + secret + "&issuer="
                + URLEncoder.encode(issuer, StandardCharsets.UTF_8).replace("+", "%20")
                + "&algorithm=SHA1&digits=" + DIGITS + "&period=" + PERIOD_SECONDS;
    }
}
