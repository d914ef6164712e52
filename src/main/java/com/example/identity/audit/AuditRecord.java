package com.example.identity.audit;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One line of the audit trail. */
@Entity
@Table(name = "audit_events")
public class AuditRecord {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "occurred_at", nullable = false)
    private Instant occurredAt;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 40)
    private AuditEvent.Type event;

    @Column(length = 254)
    private String actor;

    /** The account the actor was when the line was written, if it was one (issue 39.6): the download selects by it. */
    @Column(name = "actor_id")
    private Long actorId;

    @Column(length = 64)
    private String address;

    @Column(length = 200)
    private String subject;

    protected AuditRecord() {
    }

    AuditRecord(Instant occurredAt, AuditEvent.Type event, String actor, String address, String subject) {
        this(occurredAt, event, actor, null, address, subject);
    }

    AuditRecord(Instant occurredAt, AuditEvent.Type event, String actor, Long actorId, String address, String subject) {
        this.actorId = actorId;
        this.occurredAt = occurredAt;
        this.event = event;
        this.actor = clip(actor, 254);
        this.address = clip(address, 64);
        this.subject = clip(subject, 200);
    }

    private static String clip(String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }

    public Long getId() {
        return id;
    }

    public Instant getOccurredAt() {
        return occurredAt;
    }

    public AuditEvent.Type getEvent() {
        return event;
    }

    public String getActor() {
        return actor;
    }

    public Long getActorId() {
        return actorId;
    }

    public String getAddress() {
        return address;
    }

    public String getSubject() {
        return subject;
    }
}
