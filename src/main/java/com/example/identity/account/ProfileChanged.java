package com.example.identity.account;

/**
 * Published inside the transaction that changed what an account shows of itself (its name) without
 * changing what it may do: sessions stay, but cached copies of the account (the token cache behind
 * {@code /api/userinfo.php} and {@code /oauth/userinfo.php}) must be looked up again, on every instance.
 */
public record ProfileChanged(long userId) {
}
