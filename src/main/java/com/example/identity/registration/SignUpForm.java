package com.example.identity.registration;

import java.time.LocalDate;

import org.jspecify.annotations.Nullable;

import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;

/**
 * What the sign-up form asked for, checked: the address normalised, the name cleaned; with another provider's
 * identity (D38) no password, and that identity; the birth date (decisions §27) and, under the consent age, the
 * parent's address ({@code correo_tutor}, else null).
 */
record SignUpForm(String correo, String primerNombre, @Nullable String password, IdentitySignUp.@Nullable Identity identity,
        @Nullable LocalDate fechaNacimiento, @Nullable String correoTutor) {

    static final String INVALID_EMAIL = "Escribe una dirección de correo válida";

    /**
     * Checks the form with the rules of every account (address shape, the name's rule, the password's rule of
     * {@code /cuenta/contrasena}; no password with another provider's {@code identity}).
     *
     * @throws InvalidField with field {@code correo}
     * @throws AccountService.InvalidAccountException with field {@code primer_nombre} or {@code password}
     */
    static SignUpForm check(@Nullable String correo, @Nullable String primerNombre, @Nullable String password,
            IdentitySignUp.@Nullable Identity identity) {
        String typed = correo == null ? "" : correo.strip();
        if (!AccountService.isValidEmail(typed)) {
            throw new InvalidField("correo", INVALID_EMAIL);
        }
        String name = AccountService.checkName(primerNombre);
        if (identity != null) {
            return new SignUpForm(UserAccount.normalizeEmail(typed), name, null, identity, null, null);
        }
        AccountService.checkChosenPassword(password);
        return new SignUpForm(UserAccount.normalizeEmail(typed), name, password, null, null, null);
    }

    /** The same form with the person's birth date and, under the consent age, the parent's address. */
    SignUpForm born(LocalDate birth, @Nullable String tutor) {
        return new SignUpForm(correo, primerNombre, password, identity, birth, tutor);
    }

    @Override
    public String toString() {
        return "SignUpForm[" + correo + "]";
    }

    /** A field of the form refused. */
    static final class InvalidField extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String field;

        InvalidField(String field, String message) {
            super(message);
            this.field = field;
        }
    }
}
