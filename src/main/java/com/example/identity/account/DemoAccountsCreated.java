package com.example.identity.account;

/**
 * Published once, right after the demo accounts of decisions §9 were created, so that other features
 * can add their demo objects. {@code developerId} is the id of {@code dev@example.com}.
 */
public record DemoAccountsCreated(long developerId) {
}
