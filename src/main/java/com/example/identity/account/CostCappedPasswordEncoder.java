package com.example.identity.account;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Verifies only hashes within {@link ImportedPasswordHashes#aboveCostCaps the cost caps}: a stored bcrypt or
 * Argon2 hash above them (written to the database by hand, or by an import before the caps existed) does not
 * match, without being computed, so one login cannot hold a hashing thread for hours or ask for gigabytes.
 * The account then gets in by password recovery, which stores a hash at today's setting. New hashes are the
 * delegate's own, at today's setting, and pass unchanged.
 */
final class CostCappedPasswordEncoder implements PasswordEncoder {

    private static final Logger log = LoggerFactory.getLogger(CostCappedPasswordEncoder.class);

    private final PasswordEncoder delegate;

    CostCappedPasswordEncoder(PasswordEncoder delegate) {
        this.delegate = delegate;
    }

    @Override
    public String encode(CharSequence rawPassword) {
        return delegate.encode(rawPassword);
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        var tooCostly = encodedPassword == null ? Optional.<String>empty()
                : ImportedPasswordHashes.aboveCostCaps(encodedPassword);
        if (tooCostly.isPresent()) {
            // the parameters only: no hash, no account
            log.warn("Stored password hash not verified: {}", tooCostly.get());
            return false;
        }
        return delegate.matches(rawPassword, encodedPassword);
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return delegate.upgradeEncoding(encodedPassword);
    }
}
