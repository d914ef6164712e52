package com.example.identity.client;

/**
 * Published inside the transaction that revokes an application: whatever was issued to it must die in
 * the same transaction (the token feature listens and revokes the application's live tokens).
 */
public record ClientRevoked(String clientId) {
}
