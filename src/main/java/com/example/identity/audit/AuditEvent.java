package com.example.identity.audit;

/**
 * Something worth an audit line, published as a Spring application event by the feature that did it.
 * The actor and the source address are taken from the request being served when the event is
 * recorded; {@code subject} names what was acted on and is never a secret.
 */
public record AuditEvent(Type type, String subject, String actor) {

    public AuditEvent(Type type, String subject) {
        this(type, subject, null);
    }

    /**
     * The address typed in a login form, for the actor of an audit line, only when it looks like one:
     * people sometimes type their password in the e-mail field, and a password must never reach the trail.
     */
    public static String attemptedAccount(String username) {
        return username != null && username.length() <= 254 && username.matches("[^@\\s]+@[^@\\s]+")
                ? username.strip() : "(no es un correo)";
    }

    /** The events of the trail, with the Spanish label the admin page shows. */
    public enum Type {
        LOGIN_SUCCEEDED("Inicio de sesión"),
        LOGIN_FAILED("Inicio de sesión fallido"),
        LOGIN_LOCKED("Inicio de sesión bloqueado"),
        TOKEN_CREATED("Token creado"),
        TOKEN_REVOKED("Token revocado"),
        CLIENT_CREATED("Aplicación creada"),
        CLIENT_SECRET_ROTATED("Secreto rotado"),
        CLIENT_REVOKED("Aplicación revocada"),
        CODE_REUSE_DETECTED("Reutilización de código detectada"),
        /** An import from the system this service replaces (migration/): the OS user who ran it, the counts. */
        IMPORT_COMPLETED("Importación desde el sistema anterior");

        private final String label;

        Type(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
