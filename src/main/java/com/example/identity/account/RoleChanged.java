package com.example.identity.account;

/**
 * Published inside the transaction that changed a role. Dropping from {@code developer_api} or
 * {@code admin} to {@code user} revokes the account's personal API tokens (specification §2.2 ties them
 * to those roles), in the same transaction.
 */
public record RoleChanged(long userId, Role from, Role to) {

    /** Whether the account lost the right to personal tokens. */
    public boolean demotedToUser() {
        return from.isDeveloper() && !to.isDeveloper();
    }
}
