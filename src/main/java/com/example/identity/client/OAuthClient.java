package com.example.identity.client;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An OAuth application (specification §2.3): one redirect URI, a client id, a secret kept as a digest. Its
 * {@code client_id} and {@code revoked_at} are published to others as the view {@code client_revocations} (V96,
 * docs/architecture.md "Published views").
 */
@Entity
@Table(name = "oauth_clients")
public class OAuthClient {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "client_id", nullable = false, unique = true, length = 100)
    private String clientId;

    @Column(nullable = false, length = 100)
    private String name;

    /** Null for a {@link ClientType#DEVICE device} application, which has none. */
    @Column(name = "redirect_uri", length = 2000)
    private String redirectUri;

    /** Null for a public client (decisions §16), which has no secret. */
    @Column(name = "secret_digest", length = 64)
    private String secretDigest;

    @Column(name = "client_type", nullable = false, length = 12)
    private ClientType type = ClientType.WEB;

    @Column(name = "owner_id", nullable = false)
    private long ownerId;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "secret_rotated_at")
    private Instant secretRotatedAt;

    @Column(name = "revoked_at")
    private Instant revokedAt;

    /**
     * First-party applications skip the consent page (decisions §12.6). False for what developers
     * register; the demo application, imported ones and those older than consent are first-party.
     */
    @Column(name = "first_party", nullable = false)
    private boolean firstParty;

    /** Where a logout token goes when a session that got an id_token ends (decisions §20); null: nowhere. */
    @Column(name = "backchannel_logout_uri", length = 2000)
    private String backChannelLogoutUri;

    /**
     * Whether the application's authorization requests must be pushed first (RFC 9126, {@code par_obligatorio},
     * decisions §28): {@code web} and {@code nativa} only.
     */
    @Column(name = "par_required", nullable = false)
    private boolean parRequired;

    /**
     * Whether the application's tokens must be bound to a DPoP key (RFC 9449, {@code dpop_obligatorio}, decisions
     * §28): every token request carries a proof. Not for a {@code servidor}, whose own token is not bound.
     */
    @Column(name = "dpop_required", nullable = false)
    private boolean dpopRequired;

    public boolean requiresPushedRequests() {
        return parRequired;
    }

    public boolean requiresDPoP() {
        return dpopRequired;
    }

    void require(SenderConstraints constraints) {
        if (constraints.pushedRequests() && !type.hasRedirectUri()) {
            throw new IllegalStateException("only web and native applications make authorization requests");
        }
        if (constraints.dpop() && type == ClientType.SERVER) {
            throw new IllegalStateException("a server's own token is not bound to a key");
        }
        this.parRequired = constraints.pushedRequests();
        this.dpopRequired = constraints.dpop();
    }

    /** Whether the application accepts guest players (decisions §24): {@code nativa} and {@code dispositivo} only. */
    @Column(nullable = false)
    private boolean guests;

    public boolean acceptsGuests() {
        return guests;
    }

    void acceptGuests() {
        if (!type.isPublic()) {
            throw new IllegalStateException("only native and device applications accept guests");
        }
        this.guests = true;
    }

    public String getBackChannelLogoutUri() {
        return backChannelLogoutUri;
    }

    void setBackChannelLogoutUri(String uri) {
        this.backChannelLogoutUri = uri;
    }

    protected OAuthClient() {
    }

    OAuthClient(String clientId, String name, String redirectUri, String secretDigest, long ownerId, Instant now) {
        this(clientId, name, redirectUri, secretDigest, ownerId, now, ClientType.WEB);
    }

    OAuthClient(String clientId, String name, String redirectUri, String secretDigest, long ownerId, Instant now,
            ClientType type) {
        this.type = type;
        this.clientId = clientId;
        this.name = name;
        this.redirectUri = redirectUri;
        this.secretDigest = secretDigest;
        this.ownerId = ownerId;
        this.createdAt = now;
    }

    void rotateSecret(String newSecretDigest, Instant now) {
        if (isRevoked()) {
            throw new IllegalStateException("a revoked application keeps its revoked secret");
        }
        this.secretDigest = newSecretDigest;
        this.secretRotatedAt = now;
    }

    /** Revokes the application; revoking twice keeps the first time. */
    boolean revoke(Instant now) {
        if (isRevoked()) {
            return false;
        }
        this.revokedAt = now;
        return true;
    }

    public boolean isRevoked() {
        return revokedAt != null;
    }

    public ClientType getType() {
        return type;
    }

    public boolean isFirstParty() {
        return firstParty;
    }

    /** @return whether this changed anything */
    boolean setFirstParty(boolean firstParty) {
        boolean changed = this.firstParty != firstParty;
        this.firstParty = firstParty;
        return changed;
    }

    public Long getId() {
        return id;
    }

    public String getClientId() {
        return clientId;
    }

    public String getName() {
        return name;
    }

    public String getRedirectUri() {
        return redirectUri;
    }

    public String getSecretDigest() {
        return secretDigest;
    }

    public long getOwnerId() {
        return ownerId;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getSecretRotatedAt() {
        return secretRotatedAt;
    }

    public Instant getRevokedAt() {
        return revokedAt;
    }
}
