package com.example.identity.minors;

/** A field of the sign-up form that decisions §27 added ({@code fecha_nacimiento}, {@code correo_tutor}) refused, with the Spanish reason. */
public final class RefusedField extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;

    RefusedField(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The form's field. */
    public String field() {
        return field;
    }
}
