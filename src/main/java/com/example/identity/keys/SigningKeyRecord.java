package com.example.identity.keys;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.jspecify.annotations.Nullable;

/**
 * A generated RS256 key, kept as a PKCS#8 PEM so restarts and other instances sign with it. It is
 * published from {@code createdAt}, signs from {@code activatesAt} until {@code retiredAt} (when its
 * successor takes over), and is deleted once every {@code id_token} it signed has expired.
 */
@Entity
@Table(name = "signing_keys")
class SigningKeyRecord {

    @Id
    @Column(length = 100)
    private String kid;

    @Column(name = "private_key", nullable = false, columnDefinition = "text")
    private String privateKey;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "activates_at", nullable = false)
    private Instant activatesAt;

    @Column(name = "retired_at")
    private @Nullable Instant retiredAt;

    protected SigningKeyRecord() {
    }

    SigningKeyRecord(String kid, String privateKeyPem, Instant createdAt, Instant activatesAt) {
        this.kid = kid;
        this.privateKey = privateKeyPem;
        this.createdAt = createdAt;
        this.activatesAt = activatesAt;
    }

    String privateKeyPem() {
        return privateKey;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant activatesAt() {
        return activatesAt;
    }

    @Nullable Instant retiredAt() {
        return retiredAt;
    }

    /** Stops signing at {@code at} (its successor's activation); refuses to move an earlier retirement. */
    void retireAt(Instant at) {
        if (retiredAt == null || retiredAt.isAfter(at)) {
            retiredAt = at;
        }
    }
}
