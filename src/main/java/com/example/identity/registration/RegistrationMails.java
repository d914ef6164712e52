package com.example.identity.registration;

import org.springframework.stereotype.Component;
import org.springframework.web.util.HtmlUtils;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.mail.Mailer;

/**
 * The two mails of a sign-up (decisions §18), in text and HTML: the confirmation link to a new address, and
 * to an address that already has an account, the notice that someone tried to sign up with it, with the links
 * to log in and to recover the password.
 */
@Component
class RegistrationMails {

    static final String LINK_SUBJECT = "Confirma tu cuenta";
    static final String TAKEN_SUBJECT = "Alguien ha intentado crear una cuenta con tu correo";

    private final Mailer mailer;
    private final String issuer;

    RegistrationMails(Mailer mailer, IdentityProperties properties) {
        this.mailer = mailer;
        this.issuer = properties.issuerUrl();
    }

    /** The single-use link that creates the account of {@code correo}. */
    void sendLink(String correo, String primerNombre, String token) {
        String link = UriComponentsBuilder.fromUriString(issuer + Endpoints.REGISTRATION_CONFIRM)
                .queryParam("token", token).build().toUriString();
        String text = "Hola, " + primerNombre + ":\n\n"
                + "Para terminar de crear tu cuenta " + correo + ", abre este enlace en las próximas 24 horas:\n\n"
                + link + "\n\n"
                + "El enlace sirve una sola vez. Si no has sido tú, ignora este mensaje: no se creará ninguna cuenta.\n\n"
                + "Servicio de identidad\n";
        String html = "<!DOCTYPE html><html lang=\"es\"><body style=\"font-family: sans-serif\">"
                + "<p>Hola, " + HtmlUtils.htmlEscape(primerNombre) + ":</p>"
                + "<p>Para terminar de crear tu cuenta " + HtmlUtils.htmlEscape(correo)
                + ", abre este enlace en las próximas 24 horas:</p>"
                + "<p><a href=\"" + HtmlUtils.htmlEscape(link) + "\">Confirmar mi cuenta</a></p>"
                + "<p>El enlace sirve una sola vez. Si no has sido tú, ignora este mensaje: no se creará ninguna "
                + "cuenta.</p><p>Servicio de identidad</p></body></html>";
        mailer.send(correo, LINK_SUBJECT, text, html);
    }

    /** Someone tried to sign up with {@code correo}, which already has an account. */
    void sendTaken(String correo) {
        String login = issuer + Endpoints.LOGIN;
        String recover = issuer + Endpoints.RECOVERY_REQUEST;
        String text = "Hola:\n\n"
                + "Alguien (quizá tú) ha intentado crear una cuenta con la dirección " + correo
                + ", pero ya tienes una.\n\n"
                + "Para entrar: " + login + "\n"
                + "Si no recuerdas la contraseña: " + recover + "\n\n"
                + "Si no has sido tú, ignora este mensaje: tu cuenta no ha cambiado.\n\n"
                + "Servicio de identidad\n";
        String html = "<!DOCTYPE html><html lang=\"es\"><body style=\"font-family: sans-serif\">"
                + "<p>Hola:</p><p>Alguien (quizá tú) ha intentado crear una cuenta con la dirección "
                + HtmlUtils.htmlEscape(correo) + ", pero ya tienes una.</p>"
                + "<p><a href=\"" + HtmlUtils.htmlEscape(login) + "\">Iniciar sesión</a> · "
                + "<a href=\"" + HtmlUtils.htmlEscape(recover) + "\">Recuperar la contraseña</a></p>"
                + "<p>Si no has sido tú, ignora este mensaje: tu cuenta no ha cambiado.</p>"
                + "<p>Servicio de identidad</p></body></html>";
        mailer.send(correo, TAKEN_SUBJECT, text, html);
    }
}
