package com.example.identity.account;

/**
 * Published when the current password given at {@code /cuenta/contrasena} is wrong: the login throttle
 * counts it as a failed login of that account from the request's address, so the form is no way around
 * the login's limits.
 */
public record PasswordCheckFailed(String correo) {
}
