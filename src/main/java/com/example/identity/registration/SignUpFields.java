package com.example.identity.registration;

import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.BindParam;

/**
 * The sign-up form's fields as typed, bound by their names ({@code POST /registro}): {@code correo},
 * {@code primer_nombre}, {@code password} (none with another provider's identity), {@code redirect} (the authorization
 * request that led here), {@code fecha_nacimiento} and {@code correo_tutor} (decisions §27). {@link SignUpForm#check}
 * and minors/BirthDates check them.
 */
record SignUpFields(@Nullable String correo, @BindParam("primer_nombre") @Nullable String primerNombre,
        @Nullable String password, @Nullable String redirect,
        @BindParam("fecha_nacimiento") @Nullable String fechaNacimiento,
        @BindParam("correo_tutor") @Nullable String correoTutor) {

    /** A typed value shown again on the refused form, or empty when longer than the field allows. */
    static String shown(@Nullable String typed, int max) {
        return typed == null || typed.length() > max ? "" : typed.strip();
    }

    @Override
    public String toString() {
        return "SignUpFields[" + correo + "]";
    }
}
