package com.example.identity.account;

import java.util.ArrayList;
import java.util.List;

/**
 * A password recovery proved the address of an account whose address nobody had proved before (D44): from now on
 * the account is the mailbox owner's, and whatever way into it was added without that proof goes, as its session
 * did. Published by {@link AccountService#recoverPassword} inside its transaction; the features that own those
 * ways remove them and say so here (federation/: the linked identities, by provider name; passkey/: the
 * passkeys), and the owner is told by mail after the commit. An account made by an admin or an import without
 * {@code correo_verificado}, or by another provider's unverified address before D44, is such an account: whoever
 * held it before may not be the mailbox's owner.
 */
public final class UnprovenAddressProved {

    private final long userId;
    private final String correo;
    private final List<String> unlinked = new ArrayList<>();
    private int passkeys;

    UnprovenAddressProved(long userId, String correo) {
        this.userId = userId;
        this.correo = correo;
    }

    public long userId() {
        return userId;
    }

    public String correo() {
        return correo;
    }

    /** A linked identity of {@code provider} (its name as the login page shows it) was removed. */
    public void unlinked(String provider) {
        unlinked.add(provider);
    }

    /** {@code count} passkeys were removed. */
    public void passkeysRemoved(int count) {
        passkeys += count;
    }

    List<String> unlinked() {
        return List.copyOf(unlinked);
    }

    int passkeys() {
        return passkeys;
    }

    boolean removedAnything() {
        return !unlinked.isEmpty() || passkeys > 0;
    }
}
