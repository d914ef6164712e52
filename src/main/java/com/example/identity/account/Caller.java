package com.example.identity.account;

/**
 * Who is asking, for the ownership rule of the dashboard and the management routes (decisions §11): a
 * user sees and changes only what they own; an {@code admin} sees and changes everything.
 */
public record Caller(long userId, boolean admin) {

    public static Caller of(AccountPrincipal principal) {
        return new Caller(principal.id(), principal.rol() == Role.ADMIN);
    }

    /** Whether this caller may see or change something owned by {@code ownerId}. */
    public boolean mayActOn(long ownerId) {
        return admin || ownerId == userId;
    }
}
