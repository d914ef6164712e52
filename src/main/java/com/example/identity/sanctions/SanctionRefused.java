package com.example.identity.sanctions;

import java.io.Serial;

import org.jspecify.annotations.Nullable;

/**
 * A sanction not placed, lifted or listed, with the Spanish reason the API answers ({@code {"ok":false,"error":...}},
 * decisions §26) and the page shows; {@link Reason#status} is the API's status, {@link Reason#field} the form field it
 * is about (null when none). Control flow: no stack trace.
 */
public final class SanctionRefused extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** Every refusal, in the order they are checked. */
    public enum Reason {
        USUARIO_MISSING(400, "usuario_id", "Falta el parámetro usuario_id"),
        USUARIO_INVALID(400, "usuario_id", "usuario_id inválido"),
        MOTIVO_MISSING(400, "motivo", "Falta el parámetro motivo"),
        MOTIVO_TOO_LONG(400, "motivo", "motivo demasiado largo (máximo 200 caracteres)"),
        MOTIVO_INVALID(400, "motivo", "motivo inválido: sin caracteres de control"),
        HASTA_INVALID(400, "hasta", "hasta inválido"),
        CLIENT_INVALID(400, "client_id", "client_id inválido"),
        /** Everywhere is for admins; an application is for its owner (or an admin). */
        DENIED(403, null, "Permiso denegado"),
        USER_NOT_FOUND(404, "usuario_id", "Usuario no encontrado"),
        CLIENT_NOT_FOUND(404, "client_id", "Aplicación no encontrada"),
        CLIENT_IS_SERVER(400, "client_id", "client_id inválido: una aplicación de tipo servidor no tiene jugadores"),
        OWN_ACCOUNT(409, "usuario_id", "No puedes sancionarte a ti mismo"),
        NOT_FOUND(404, null, "Sanción no encontrada");

        private final int status;
        private final @Nullable String field;
        private final String message;

        Reason(int status, @Nullable String field, String message) {
            this.status = status;
            this.field = field;
            this.message = message;
        }

        public int status() {
            return status;
        }

        /** The form field the refusal is about, or null. */
        public @Nullable String field() {
            return field;
        }

        public String message() {
            return message;
        }
    }

    private final Reason reason;

    public SanctionRefused(Reason reason) {
        super(reason.message(), null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
