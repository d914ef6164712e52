package com.example.identity.keys;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A generated RS256 key, kept as a PKCS#8 PEM so restarts and other instances sign with it. */
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

    @Column(name = "retired_at")
    private Instant retiredAt;

    protected SigningKeyRecord() {
    }

    SigningKeyRecord(String kid, String privateKeyPem, Instant createdAt) {
        this.kid = kid;
        this.privateKey = privateKeyPem;
        this.createdAt = createdAt;
    }

    String privateKeyPem() {
        return privateKey;
    }

    Instant createdAt() {
        return createdAt;
    }
}
