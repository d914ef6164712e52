package com.example.identity.account;

import java.time.Instant;

/**
 * Published by {@link AccountDeletion} inside the deleting transaction, once every row of the account is gone
 * (the {@code users} row included): listeners that must react durably (webhooks, issue 29) enqueue their work
 * in the same transaction (outbox/Outbox); listeners that must only act after the commit use
 * {@code @TransactionalEventListener}. Carries no e-mail address: the account is anonymous from here on.
 */
public record AccountDeleted(long userId, boolean byAdmin, Instant deletedAt) {

    /** The subject this service gave the account in tokens ({@code user:<id>}). */
    public String subject() {
        return "user:" + userId;
    }
}
