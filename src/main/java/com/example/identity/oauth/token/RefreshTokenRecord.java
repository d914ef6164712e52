package com.example.identity.oauth.token;

import java.time.Instant;
import java.util.Set;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.jspecify.annotations.Nullable;

import com.example.identity.common.SpaceSeparated;

/**
 * A refresh token (decisions §12.4): only its SHA-256 digest, the family it belongs to (the authorization
 * it came from, shared with the access tokens of that grant), whose it is, and its state: live, rotated
 * (used once and replaced; presenting it again is a reuse) or revoked.
 */
@Entity
@Table(name = "refresh_tokens")
public class RefreshTokenRecord {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "token_digest", nullable = false, unique = true, length = 64)
    private String tokenDigest;

    @Column(name = "authorization_id", nullable = false, length = 100)
    private String authorizationId;

    @Column(name = "client_id", nullable = false, length = 100)
    private String clientId;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false, length = 200)
    private String scopes;

    /**
     * The thumbprint of the DPoP key a public client's token is bound to (RFC 9449 §5, decisions §28): refreshed only
     * with a proof of that key. Null: unbound (a confidential client's, or one issued without a proof).
     */
    @Column(name = "dpop_jkt", length = 43)
    private String dpopJkt;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "expires_at", nullable = false)
    private Instant expiresAt;

    @Column(name = "rotated_at")
    private Instant rotatedAt;

    @Column(name = "revoked_at")
    private Instant revokedAt;

    protected RefreshTokenRecord() {
    }

    RefreshTokenRecord(String tokenDigest, String authorizationId, String clientId, long userId, Set<String> scopes,
            @Nullable String dpopJkt, Instant createdAt, Instant expiresAt) {
        this.tokenDigest = tokenDigest;
        this.dpopJkt = dpopJkt;
        this.authorizationId = authorizationId;
        this.clientId = clientId;
        this.userId = userId;
        this.scopes = String.join(" ", scopes);
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
    }

    Long id() {
        return id;
    }

    public String authorizationId() {
        return authorizationId;
    }

    public String clientId() {
        return clientId;
    }

    public long userId() {
        return userId;
    }

    public Set<String> scopes() {
        return SpaceSeparated.words(scopes);
    }

    /** The thumbprint of the DPoP key the token is bound to, or null. */
    public @Nullable String dpopJkt() {
        return dpopJkt;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant expiresAt() {
        return expiresAt;
    }

    public boolean isRotated() {
        return rotatedAt != null;
    }

    public boolean isRevoked() {
        return revokedAt != null;
    }

    public boolean isExpiredAt(Instant now) {
        return !expiresAt.isAfter(now);
    }
}
