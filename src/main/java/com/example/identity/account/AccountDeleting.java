package com.example.identity.account;

/**
 * Published by {@link AccountDeletion} inside the deleting transaction before any row goes, while the account
 * still exists: the features that must undo something first (client/ revokes the applications the account
 * owns, so their tokens are refused and their caches forgotten; oauth's back-channel logout records the
 * sessions to tell) listen synchronously. The rows themselves are deleted afterwards by {@link AccountDeletion}.
 */
public record AccountDeleting(long userId, String correo) {
}
