package com.example.identity.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * High-entropy secrets (API tokens, client secrets, authorization codes): made with {@link SecureRandom},
 * stored only as SHA-256 digests and compared in constant time (decisions §4). The one source of
 * randomness for anything secret in this service: client ids and one-time passwords come from here too.
 */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private Secrets() {
    }

    /** {@code bytes} random bytes as lowercase hex (twice as many characters). */
    public static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return HEX.formatHex(b);
    }

    /** {@code bytes} random bytes (a webhook's signing key, issue 29). */
    public static byte[] randomBytes(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return b;
    }

    /** A uniform random number from 0 to {@code bound} - 1 (a guest's four digits, decisions §24). */
    public static int randomInt(int bound) {
        return RANDOM.nextInt(bound);
    }

    /** {@code bytes} random bytes as URL-safe Base64 without padding (4 characters per 3 bytes). */
    public static String randomUrlSafe(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** SHA-256 of the UTF-8 bytes of {@code value}, as 64 lowercase hex characters. */
    public static String sha256Hex(String value) {
        return HEX.formatHex(sha256(value));
    }

    /** Whether {@code presentedValue} hashes to {@code expectedHexDigest}, compared in constant time. */
    public static boolean digestMatches(String expectedHexDigest, String presentedValue) {
        if (expectedHexDigest == null || presentedValue == null) {
            return false;
        }
        return MessageDigest.isEqual(expectedHexDigest.getBytes(StandardCharsets.US_ASCII),
                sha256Hex(presentedValue).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
