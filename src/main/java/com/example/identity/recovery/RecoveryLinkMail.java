package com.example.identity.recovery;

import org.springframework.stereotype.Component;
import org.springframework.web.util.HtmlUtils;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.account.UserAccount;
import com.example.identity.mail.Mailer;

/** The mail of a password recovery link ({@link PasswordRecovery}): the link to the reset page, in text and HTML. */
@Component
class RecoveryLinkMail {

    private final Mailer mailer;
    private final String issuer;

    RecoveryLinkMail(Mailer mailer, IdentityProperties properties) {
        this.mailer = mailer;
        this.issuer = properties.issuerUrl();
    }

    /** Sends {@code user} the link that resets the password with {@code token}. */
    void send(UserAccount user, String token) {
        String link = UriComponentsBuilder.fromUriString(issuer + Endpoints.RECOVERY_RESET).queryParam("token", token)
                .build().toUriString();
        mailer.send(user.getCorreo(), "Restablece tu contraseña", text(user, link), html(user, link));
    }

    static String text(UserAccount user, String link) {
        return "Hola, " + user.getPrimerNombre() + ":\n\n"
                + "Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta " + user.getCorreo()
                + ".\nPara elegir una nueva, abre este enlace en los próximos 30 minutos:\n\n"
                + link + "\n\n"
                + "El enlace sirve una sola vez. Al usarlo se cerrarán todas las sesiones abiertas de tu cuenta.\n"
                + "Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambia.\n\n"
                + "Servicio de identidad\n";
    }

    static String html(UserAccount user, String link) {
        String href = HtmlUtils.htmlEscape(link);
        return "<!DOCTYPE html><html lang=\"es\"><body style=\"font-family: sans-serif\">"
                + "<p>Hola, " + HtmlUtils.htmlEscape(user.getPrimerNombre()) + ":</p>"
                + "<p>Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta "
                + HtmlUtils.htmlEscape(user.getCorreo()) + ". Para elegir una nueva, abre este enlace en los "
                + "próximos 30 minutos:</p>"
                + "<p><a href=\"" + href + "\">Elegir una nueva contraseña</a></p>"
                + "<p>El enlace sirve una sola vez. Al usarlo se cerrarán todas las sesiones abiertas de tu cuenta. "
                + "Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambia.</p>"
                + "<p>Servicio de identidad</p></body></html>";
    }
}
