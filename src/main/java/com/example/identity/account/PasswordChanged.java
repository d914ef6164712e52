package com.example.identity.account;

import org.jspecify.annotations.Nullable;

/**
 * Published after a user chose a new password at {@code /cuenta/contrasena}: every other session of the
 * account ends ({@code keepSessionId} is the session that made the change, which stays), and the login
 * throttle forgives the failures of that account from this address.
 */
public record PasswordChanged(long userId, String correo, @Nullable String keepSessionId) {
}
