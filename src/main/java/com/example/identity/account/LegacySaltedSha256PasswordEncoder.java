package com.example.identity.account;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.regex.Matcher;

import org.springframework.security.crypto.password.AbstractValidatingPasswordEncoder;

import com.example.identity.crypto.Secrets;

/**
 * Verifies the legacy salted SHA-256 hashes an import may bring ({@code sha256$<salt>$<64 hex>}, the hex
 * SHA-256 of salt followed by the password, {@link ImportedPasswordHashes}), only when
 * {@code identity.import.legacy-sha256} is on; off, such a hash never matches. It never makes one: a
 * login that matches is rehashed to Argon2id at once.
 */
final class LegacySaltedSha256PasswordEncoder extends AbstractValidatingPasswordEncoder {

    private final boolean enabled;

    LegacySaltedSha256PasswordEncoder(boolean enabled) {
        this.enabled = enabled;
    }

    @Override
    protected String encodeNonNullPassword(String rawPassword) {
        throw new UnsupportedOperationException("salted SHA-256 is only verified, never written");
    }

    @Override
    protected boolean matchesNonNull(String rawPassword, String encodedPassword) {
        Matcher parts = ImportedPasswordHashes.SHA256.matcher(encodedPassword);
        if (!enabled || !parts.matches()) {
            return false;
        }
        String computed = Secrets.sha256Hex(parts.group(1) + rawPassword);
        return MessageDigest.isEqual(computed.getBytes(StandardCharsets.US_ASCII),
                parts.group(2).getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    protected boolean upgradeEncodingNonNull(String encodedPassword) {
        return true;
    }
}
