package com.example.identity.recovery;

import jakarta.validation.constraints.AssertTrue;

/**
 * The form of {@code /login/restablecer}: the link's {@code token}, and the new password typed twice,
 * {@code nueva} and {@code repetida}. The two must be the same ({@code repetida}'s message); the password's own
 * rules are the account's ({@code AccountService}), checked when it is set.
 */
record PasswordResetForm(String token, String nueva, String repetida) {

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
