package com.example.identity.deviceflow;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

import org.springframework.data.domain.Persistable;

import com.example.identity.common.SpaceSeparated;

/**
 * One run of the device flow (RFC 8628): what a console asked for at {@code /oauth/device.php}, and what
 * became of it. The device code and the user code are kept only as their SHA-256 digests. Changes of state
 * are conditional UPDATEs of {@link DeviceAuthorizationRepository}, so two instances, or two tabs, cannot
 * both decide, nor two polls both spend it.
 */
@Entity
@Table(name = "device_authorizations")
public class DeviceAuthorization implements Persistable<String> {

    /** Where a run stands. */
    public enum Status {
        /** Waiting for the user at {@code /activar}. */
        PENDING,
        /** Approved; the next poll gets the tokens. */
        APPROVED,
        /** Denied by the user. */
        DENIED,
        /** Approved and exchanged for tokens: spent. */
        USED
    }

    @Id
    @Column(length = 100)
    private String id;

    @Column(name = "client_id", nullable = false, length = 100)
    private String clientId;

    @Column(name = "device_code_digest", nullable = false, length = 64, unique = true)
    private String deviceCodeDigest;

    @Column(name = "user_code_digest", nullable = false, length = 64, unique = true)
    private String userCodeDigest;

    @Column(nullable = false, length = 200)
    private String scopes;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "expires_at", nullable = false)
    private Instant expiresAt;

    /** Seconds a console waits between polls; 5 more after each {@code slow_down}. */
    @Column(name = "poll_interval", nullable = false)
    private int pollInterval;

    @Column(name = "last_polled_at")
    private Instant lastPolledAt;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 10)
    private Status status;

    @Column(name = "user_id")
    private Long userId;

    @Column(name = "decided_at")
    private Instant decidedAt;

    /** When the approving user logged in (the id_token's {@code auth_time}). */
    @Column(name = "auth_time")
    private Instant authTime;

    /** How the approving user logged in (RFC 8176, space-separated). */
    @Column(length = 64)
    private String amr;

    @Transient
    private boolean isNew;

    protected DeviceAuthorization() {
    }

    DeviceAuthorization(String id, String clientId, String deviceCodeDigest, String userCodeDigest, Set<String> scopes,
            Instant createdAt, Instant expiresAt, int pollInterval) {
        this.id = id;
        this.clientId = clientId;
        this.deviceCodeDigest = deviceCodeDigest;
        this.userCodeDigest = userCodeDigest;
        this.scopes = String.join(" ", scopes);
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
        this.pollInterval = pollInterval;
        this.status = Status.PENDING;
        this.isNew = true;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public boolean isNew() {
        return isNew;
    }

    @PostPersist
    void persisted() {
        isNew = false;
    }

    public String clientId() {
        return clientId;
    }

    public Set<String> scopes() {
        return SpaceSeparated.words(scopes);
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant expiresAt() {
        return expiresAt;
    }

    /** Expired when the expiry is not later than {@code now}. */
    public boolean isExpiredAt(Instant now) {
        return !expiresAt.isAfter(now);
    }

    public int pollInterval() {
        return pollInterval;
    }

    Instant lastPolledAt() {
        return lastPolledAt;
    }

    public Status status() {
        return status;
    }

    public Long userId() {
        return userId;
    }

    public Instant authTime() {
        return authTime;
    }

    public List<String> amr() {
        return amr == null || amr.isEmpty() ? List.of() : List.of(amr.split(" "));
    }
}
