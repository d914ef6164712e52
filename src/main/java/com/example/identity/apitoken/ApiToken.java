package com.example.identity.apitoken;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An API token (specification §2.2). The plain token is never here: only its SHA-256 digest and its
 * first 8 characters, enough to recognise it in a list.
 */
@Entity
@Table(name = "api_tokens")
public class ApiToken {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false, length = 100)
    private String name;

    @Column(name = "token_digest", nullable = false, unique = true, length = 64)
    private String tokenDigest;

    @Column(nullable = false, length = 8)
    private String prefix;

    @Column(nullable = false, length = 10)
    private TokenKind kind;

    @Column(name = "client_id", length = 100)
    private String clientId;

    /** The OAuth scopes of a token issued to a client, space-separated; null for a personal token. */
    @Column(length = 200)
    private String scopes;

    /** What a personal token may do; null for a token issued to a client. */
    @Column(name = "personal_scope", length = 10)
    private TokenScope personalScope;

    @Column(name = "authorization_id", length = 100)
    private String authorizationId;

    /** Known claims the authorization's {@code claims} parameter asked for at the UserInfo endpoint, space-separated. */
    @Column(name = "userinfo_claims", length = 200)
    private String userInfoClaims;

    /**
     * The thumbprint of the DPoP key the token is bound to (RFC 9449, decisions §28): presented with a proof of that
     * key only. Null for an unbound token, and for every personal token.
     */
    @Column(name = "dpop_jkt", length = 43)
    private String dpopJkt;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "expires_at")
    private Instant expiresAt;

    @Column(name = "last_used_at")
    private Instant lastUsedAt;

    @Column(name = "revoked_at")
    private Instant revokedAt;

    protected ApiToken() {
    }

    /**
     * A personal token, made by its owner ({@code expiresAt} null: valid until revoked). Tokens issued to a client
     * are inserted without an entity ({@link ApiTokenService#issueForClient}), so none is made here.
     */
    ApiToken(long userId, String name, String tokenDigest, String prefix, TokenScope personalScope, Instant createdAt,
            Instant expiresAt) {
        this.userId = userId;
        this.name = name;
        this.tokenDigest = tokenDigest;
        this.prefix = prefix;
        this.kind = TokenKind.PERSONAL;
        this.personalScope = personalScope;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
    }

    /** Revokes the token; a second revoke keeps the first time and answers false. */
    public boolean revoke(Instant now) {
        if (revokedAt != null) {
            return false;
        }
        revokedAt = now;
        return true;
    }

    public boolean isRevoked() {
        return revokedAt != null;
    }

    public boolean isExpiredAt(Instant now) {
        return expiresAt != null && !expiresAt.isAfter(now);
    }

    public Long getId() {
        return id;
    }

    public long getUserId() {
        return userId;
    }

    public String getName() {
        return name;
    }

    public String getPrefix() {
        return prefix;
    }

    public TokenKind getKind() {
        return kind;
    }

    public TokenScope getPersonalScope() {
        return personalScope;
    }

    /**
     * What the token may do, as the management routes show it: {@code perfil} or {@code gestion} for a
     * personal token, the space-separated OAuth scopes for one issued to a client.
     */
    public String scope() {
        return kind == TokenKind.PERSONAL ? personalScope.value() : scopes;
    }

    public String getClientId() {
        return clientId;
    }

    public String getScopes() {
        return scopes;
    }

    public String getAuthorizationId() {
        return authorizationId;
    }

    public String getDpopJkt() {
        return dpopJkt;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getExpiresAt() {
        return expiresAt;
    }

    public Instant getLastUsedAt() {
        return lastUsedAt;
    }

    public Instant getRevokedAt() {
        return revokedAt;
    }
}
