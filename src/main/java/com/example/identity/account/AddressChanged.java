package com.example.identity.account;

/**
 * Published by {@link EmailChanges#followChange} in the transaction of an address change, once {@code users}
 * holds {@code correo}: the features keyed by the login name follow it (passkey/'s user entity), each in its own
 * tables.
 */
public record AddressChanged(long userId, String old, String correo) {
}
