package com.example.identity.account;

/**
 * Published when the current password given at a form that confirms a change with it ({@code /cuenta/contrasena},
 * the e-mail address, the second factor, a new passkey) is wrong: the login throttle counts it as a failed
 * login of that account from the request's address, so no form is a way around the login's limits.
 */
public record PasswordCheckFailed(String correo) {
}
