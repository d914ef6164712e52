package com.example.identity.common;

import java.time.Instant;
import java.util.Set;

/**
 * A person's grants in force to applications, as one feature keeps them (issue 39.5): the consents given, the
 * access and refresh tokens neither revoked nor expired, the codes not yet spent. Each feature that owns such rows
 * implements this for them, so whoever asks which applications a person uses now (the webhooks' recipients)
 * collects every {@code ClientGrants} instead of reading the features' tables.
 */
public interface ClientGrants {

    /** The client ids to which {@code userId} has a grant of this kind in force at {@code now}. */
    Set<String> clientsOf(long userId, Instant now);
}
