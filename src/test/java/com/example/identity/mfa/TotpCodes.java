package com.example.identity.mfa;

import java.time.Instant;

/** The authenticator app, for tests: the code of a secret at the current 30-second step plus {@code steps}. */
public final class TotpCodes {

    private TotpCodes() {
    }

    public static String now(String secret, int steps) {
        return Totp.code(secret, Totp.step(Instant.now()) + steps);
    }
}
