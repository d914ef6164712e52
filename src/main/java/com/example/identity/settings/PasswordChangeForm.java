package com.example.identity.settings;

import jakarta.validation.constraints.AssertTrue;

/**
 * The form of {@code /cuenta/contrasena}: the current password {@code actual}, the new one typed twice,
 * {@code nueva} and {@code repetida}, and where to go back to ({@code redirect}, a local address, on the way to an
 * application). The two new ones must be the same ({@code repetida}'s message); the current password and the new
 * one's rules are the account's ({@code AccountService.changePassword}).
 */
record PasswordChangeForm(String actual, String nueva, String repetida, String redirect) {

    static final String MISMATCH = "Las contraseñas nuevas no coinciden";

    /** The new password typed the same twice (reported on {@code repetida}). */
    @AssertTrue(message = MISMATCH)
    boolean isRepeated() {
        return nueva != null && nueva.equals(repetida);
    }

    /** The form's field a checked property is shown on. */
    static String fieldOf(String property) {
        return "repeated".equals(property) ? "repetida" : property;
    }
}
