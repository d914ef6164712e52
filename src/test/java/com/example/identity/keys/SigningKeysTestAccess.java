package com.example.identity.keys;

import java.security.PrivateKey;

/** Lets tests write a PEM the way the service stores its own keys. */
public final class SigningKeysTestAccess {

    private SigningKeysTestAccess() {
    }

    public static String toPem(PrivateKey key) {
        return SigningKeys.toPem(key);
    }
}
