package com.example.identity.account;

/**
 * Published when an account is disabled or its role changes: its open sessions must end, so that the
 * change takes effect at once (listened to by the web layer's session registry). Also when it is enabled again
 * (no session to end; caches and webhooks, issue 29, hear of it).
 */
public record AccountChanged(long userId) {
}
