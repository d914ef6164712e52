package com.example.identity.oauth.token;

import com.example.identity.oauth.error.StandardError;
import com.example.identity.sanctions.Sanctions;

/**
 * The sanctions step of the person's grants (decisions §26): the refresh, device code and ticket grants refuse with
 * {@code invalid_grant} while a sanction keeps the person out of the calling application (one there, or a global
 * one). Decided here, where the grant is, from {@link Sanctions}' cache (no statement once it is warm); the tokens a
 * sanction revoked are refused by their own lookup. The code grant checks nothing (its twelve answers are the
 * contract's): the authorization request is refused before a code is made, and codes made earlier expired with the
 * sanction (D47).
 */
final class SanctionCheck {

    static final String SUSPENDED = "La cuenta esta suspendida en esta aplicacion";

    private SanctionCheck() {
    }

    /** Refuses with {@code invalid_grant}, the description ending with when the sanction ends. */
    static void check(Sanctions sanctions, long userId, String clientId) {
        sanctions.inForce(userId, clientId).ifPresent(sanction -> {
            throw StandardError.invalidGrant(SUSPENDED + Sanctions.until(sanction));
        });
    }
}
