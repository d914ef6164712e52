package com.example.identity.passkey;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.security.web.webauthn.api.Bytes;
import org.springframework.security.web.webauthn.api.CredentialRecord;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialUserEntity;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.UserCredentialRepository;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import com.example.identity.account.UnprovenAddressProved;

/** An account's passkeys as {@code /cuenta/seguridad} lists them, and their removal by their owner only. */
@Component
public class Passkeys {

    private final PublicKeyCredentialUserEntityRepository users;
    private final UserCredentialRepository credentials;

    Passkeys(PublicKeyCredentialUserEntityRepository users, UserCredentialRepository credentials) {
        this.users = users;
        this.credentials = credentials;
    }

    /** One passkey: its id (base64url, public), the name the user gave it, when it was added and last used. */
    public record Passkey(String id, String label, @Nullable Instant created, @Nullable Instant lastUsed) {
    }

    public List<Passkey> of(String correo) {
        PublicKeyCredentialUserEntity user = users.findByUsername(correo);
        if (user == null) {
            return List.of();
        }
        return credentials.findByUserId(user.getId()).stream()
                .map(c -> new Passkey(c.getCredentialId().toBase64UrlString(), c.getLabel(), c.getCreated(), c.getLastUsed()))
                .sorted(Comparator.comparing(Passkey::label))
                .toList();
    }

    public boolean hasAny(String correo) {
        return !of(correo).isEmpty();
    }

    /**
     * A recovery proved the address of an account whose address nobody had proved (D44): its passkeys were added
     * by whoever held the account before, who may not be the mailbox's owner, so they go (each audited), and the
     * owner's mail counts them.
     */
    @EventListener
    void onUnprovenAddressProved(UnprovenAddressProved event) {
        List<Passkey> all = of(event.correo());
        int removed = 0;
        for (Passkey passkey : all) {
            removed += remove(event.correo(), passkey.id()) ? 1 : 0;
        }
        event.passkeysRemoved(removed);
    }

    /** Removes passkey {@code id} when it is one of {@code correo}'s; false otherwise. */
    public boolean remove(String correo, String id) {
        PublicKeyCredentialUserEntity user = users.findByUsername(correo);
        if (user == null || id == null || !id.matches("[A-Za-z0-9_-]{1,1000}")) {
            return false;
        }
        CredentialRecord record = credentials.findByCredentialId(Bytes.fromBase64(id));
        if (record == null || !record.getUserEntityUserId().equals(user.getId())) {
            return false;
        }
        credentials.delete(record.getCredentialId());
        return true;
    }
}
