package com.example.identity.audit;

import org.jspecify.annotations.Nullable;

/**
 * Which account holds an actor's address as a line is written (issue 39.6), asked of the owner of the accounts
 * ({@code account/}, which implements this: the trail imports no feature). The line keeps the id, so the person's
 * download finds their lines by the account, never by an address that a later account may hold.
 */
@FunctionalInterface
public interface ActorAccounts {

    /** The id of the account whose address is {@code actor} now, or null (no such account, not an address). */
    @Nullable Long accountOf(String actor);
}
