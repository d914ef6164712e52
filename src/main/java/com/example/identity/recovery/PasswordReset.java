package com.example.identity.recovery;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One recovery link sent (decisions §17): its token's digest, for whom, until when, and whether it was used. */
@Entity
@Table(name = "password_resets")
class PasswordReset {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(name = "token_digest", nullable = false, length = 64, unique = true)
    private String tokenDigest;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "expires_at", nullable = false)
    private Instant expiresAt;

    @Column(name = "used_at")
    private Instant usedAt;

    protected PasswordReset() {
    }

    PasswordReset(long userId, String tokenDigest, Instant createdAt, Instant expiresAt) {
        this.userId = userId;
        this.tokenDigest = tokenDigest;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
    }

    Long id() {
        return id;
    }

    long userId() {
        return userId;
    }

    /** Usable: never used, and its expiry later than {@code now}. */
    boolean isUsableAt(Instant now) {
        return usedAt == null && expiresAt.isAfter(now);
    }
}
