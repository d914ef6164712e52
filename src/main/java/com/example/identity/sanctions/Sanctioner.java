package com.example.identity.sanctions;

import org.jspecify.annotations.Nullable;

import com.example.identity.account.Caller;

/**
 * Who places, lifts or lists sanctions (decisions §26): an admin (everywhere), an application's owner (in their own
 * applications: by session, or with a personal {@code gestion} token), or a {@code servidor} application's token,
 * which acts for its owner in the owner's applications only (never everywhere, whatever the owner's role).
 *
 * @param userId the account acting: the admin, the owner, the server's owner
 * @param serverClientId the {@code servidor} application whose token acts, or null
 */
public record Sanctioner(long userId, boolean admin, @Nullable String serverClientId) {

    /** A person, by session or personal token. */
    public static Sanctioner of(Caller caller) {
        return new Sanctioner(caller.userId(), caller.admin(), null);
    }

    /** A {@code servidor} application's own token, owned by {@code ownerId}. */
    public static Sanctioner server(long ownerId, String serverClientId) {
        return new Sanctioner(ownerId, false, serverClientId);
    }

    /** Only an admin, in person, sanctions someone everywhere. */
    boolean mayActEverywhere() {
        return admin && serverClientId == null;
    }

    /** In an application owned by {@code ownerId}. */
    boolean mayActIn(long ownerId) {
        return mayActEverywhere() || ownerId == userId;
    }

    /** What the audit trail names as the actor: the server's client id, else the logged-in account (null). */
    @Nullable String actor() {
        return serverClientId;
    }
}
