package com.example.identity.audit;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Something worth an audit line, published as a Spring application event by the feature that did it.
 * The actor and the source address are taken from the request being served when the event is
 * recorded; {@code subject} names what was acted on and is never a secret.
 */
public record AuditEvent(Type type, String subject, String actor) {

    /** What the trail shows instead of text typed in the e-mail field that is not a plausible address. */
    public static final String NOT_AN_EMAIL = "(no es un correo)";

    /**
     * A plausible address: a local part of the usual characters, a host name of letters, digits and
     * hyphens with a dot, a top-level domain of letters (or {@code localhost}, the first admin's default). A password with an {@code @} in it rarely fits.
     */
    private static final Pattern PLAUSIBLE_EMAIL = Pattern.compile(
            "[A-Za-z0-9._%+'-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}|[A-Za-z0-9._%+'-]{1,64}@localhost");

    public AuditEvent(Type type, String subject) {
        this(type, subject, null);
    }

    /**
     * The address typed in a login form, for the actor of an audit line, only when it looks like one:
     * people sometimes type their password in the e-mail field, and a password must never reach the trail.
     */
    public static String attemptedAccount(String username) {
        String typed = username == null ? "" : username.strip();
        return typed.length() <= 254 && PLAUSIBLE_EMAIL.matcher(typed).matches()
                ? typed.toLowerCase(Locale.ROOT) : NOT_AN_EMAIL;
    }

    /** The events of the trail, with the Spanish label the admin page shows. */
    public enum Type {
        LOGIN_SUCCEEDED("Inicio de sesión"),
        LOGIN_FAILED("Inicio de sesión fallido"),
        LOGIN_LOCKED("Inicio de sesión bloqueado"),
        LOGIN_REFUSED("Intentos rechazados por bloqueo o espera"),
        TOKEN_CREATED("Token creado"),
        TOKEN_REVOKED("Token revocado"),
        CLIENT_CREATED("Aplicación creada"),
        CLIENT_SECRET_ROTATED("Secreto rotado"),
        CLIENT_REVOKED("Aplicación revocada"),
        CODE_REUSE_DETECTED("Reutilización de código detectada"),
        /** A rotated refresh token came back: its family was revoked (RFC 9700 §4.14). */
        REFRESH_REUSE_DETECTED("Reutilización de refresh token detectada"),
        /** An application revoked one of its tokens at /oauth/revoke.php (RFC 7009). */
        TOKEN_REVOKED_BY_CLIENT("Token revocado por la aplicación"),
        /** An admin marked an application first-party or third-party (decisions §12.6). */
        CLIENT_FIRST_PARTY_CHANGED("Aplicación de primera o tercera parte"),
        CONSENT_GIVEN("Consentimiento dado"),
        CONSENT_WITHDRAWN("Consentimiento retirado"),
        DEVICE_APPROVED("Dispositivo autorizado"),
        MFA_ENABLED("Verificación en dos pasos activada"),
        PASSKEY_ADDED("Llave de acceso añadida"),
        PASSKEY_REMOVED("Llave de acceso eliminada"),
        MFA_DISABLED("Verificación en dos pasos desactivada"),
        MFA_RECOVERY_CODES_RENEWED("Códigos de recuperación renovados"),
        MFA_RECOVERY_CODE_USED("Código de recuperación usado"),
        DEVICE_DENIED("Dispositivo rechazado"),
        USER_CREATED("Usuario creado"),
        ROLE_CHANGED("Rol cambiado"),
        USER_DISABLED("Cuenta desactivada"),
        USER_ENABLED("Cuenta activada"),
        /** An account deleted (decisions §20): the subject names the id only, never the address. */
        USER_DELETED("Cuenta eliminada"),
        DATA_EXPORTED("Datos descargados"),
        PASSWORD_RESET("Contraseña restablecida por un admin"),
        PASSWORD_CHANGED("Contraseña cambiada"),
        EMAIL_CHANGE_REQUESTED("Cambio de correo pedido"),
        EMAIL_CHANGED("Correo cambiado"),
        /** A user changed their own name at /cuenta/. */
        NAME_CHANGED("Nombre cambiado"),
        /** A user ended one or all of their other sessions at /cuenta/seguridad. */
        SESSIONS_ENDED("Sesiones cerradas por el usuario"),
        PASSWORD_RECOVERY_REQUESTED("Recuperación de contraseña pedida"),
        PASSWORD_RECOVERED("Contraseña restablecida por correo"),
        CLIENT_REVOKED_BY_ADMIN("Aplicación revocada por un admin"),
        SIGNING_KEY_ROTATED("Clave de firma rotada"),
        /** An import from the system this service replaces (migration/): the OS user who ran it, the counts. */
        IMPORT_COMPLETED("Importación desde el sistema anterior"),
        /** A person made their own account at /registro and confirmed it from the mail (decisions §18). */
        USER_SIGNED_UP("Cuenta creada por registro"),
        /** The person proved the account's address (decisions §18). */
        EMAIL_VERIFIED("Correo verificado"),
        /** An identity of another provider linked to an account (decisions §19). */
        IDENTITY_LINKED("Cuenta externa vinculada"),
        /** An identity of another provider unlinked from an account (decisions §19). */
        IDENTITY_UNLINKED("Cuenta externa desvinculada"),
        /** A game made a guest player's account at /oauth/invitado.php (decisions §24). */
        GUEST_CREATED("Invitado creado"),
        /** A guest kept its progress: the same account became a full one (decisions §24). */
        GUEST_CONVERTED("Invitado convertido en cuenta"),
        /** A sanction placed (decisions §26): in one application or in all, until when, why. */
        SANCTION_PLACED("Sanción impuesta"),
        /** A sanction lifted early at levantar.php or on the sanctions page. */
        SANCTION_LIFTED("Sanción levantada"),
        /** A sanction's end came (its hasta): the applications were told. */
        SANCTION_ENDED("Sanción terminada"),
        /** A parent allowed a child's account (decisions §27). */
        PARENTAL_CONSENT_GIVEN("Consentimiento parental dado"),
        /** A parent refused a child's account, which was deleted (decisions §27). */
        PARENTAL_CONSENT_REFUSED("Consentimiento parental rechazado"),
        /** A parent withdrew the consent of a child's account, which was disabled (decisions §27). */
        PARENTAL_CONSENT_WITHDRAWN("Consentimiento parental retirado"),
        /** An admin set the birth date of an account (D50): the subject names the id only, never the date. */
        BIRTH_DATE_SET("Fecha de nacimiento cambiada por un admin");

        private final String label;

        Type(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
