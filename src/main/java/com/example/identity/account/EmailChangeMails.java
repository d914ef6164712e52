package com.example.identity.account;

import org.springframework.stereotype.Component;
import org.springframework.web.util.HtmlUtils;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.mail.Mailer;

/**
 * The two mails of an e-mail change ({@link EmailChanges}): the confirmation link to the new address, and the
 * notice to the old one once the change is made.
 */
@Component
class EmailChangeMails {

    private final Mailer mailer;
    private final String issuer;

    EmailChangeMails(Mailer mailer, IdentityProperties properties) {
        this.mailer = mailer;
        this.issuer = properties.issuerUrl();
    }

    /**
     * Sends {@code correo} the link that confirms it with {@code token}.
     *
     * @throws Mailer.MailNotSent when the mail could not be handed over
     */
    void sendLink(String correo, String name, String token) {
        String link = UriComponentsBuilder.fromUriString(issuer + Endpoints.ACCOUNT_EMAIL_CONFIRM).queryParam("token", token)
                .build().toUriString();
        mailer.send(correo, "Confirma tu nueva dirección de correo",
                "Hola, " + name + ":\n\nPara usar esta dirección en tu cuenta, abre este enlace en "
                        + "las próximas 24 horas:\n\n" + link + "\n\nSi no lo has pedido tú, ignora este mensaje.\n\n"
                        + "Servicio de identidad\n",
                "<!DOCTYPE html><html lang=\"es\"><body><p>Hola, " + HtmlUtils.htmlEscape(name)
                        + ":</p><p>Para usar esta dirección en tu cuenta, abre este enlace en las próximas 24 horas:</p>"
                        + "<p><a href=\"" + HtmlUtils.htmlEscape(link) + "\">Confirmar la nueva dirección</a></p>"
                        + "<p>Si no lo has pedido tú, ignora este mensaje.</p><p>Servicio de identidad</p></body></html>");
    }

    /** Tells {@code old} that the account's address is now {@code correo}; a failure is ignored. */
    void notifyOldAddress(String old, String name, String correo) {
        try {
            mailer.send(old, "Tu dirección de correo ha cambiado",
                    "Hola, " + name + ":\n\nLa dirección de tu cuenta ahora es " + correo + ". Si no has sido tú, "
                            + "contacta con un administrador.\n\nServicio de identidad\n",
                    "<!DOCTYPE html><html lang=\"es\"><body><p>Hola, " + HtmlUtils.htmlEscape(name) + ":</p><p>La "
                            + "dirección de tu cuenta ahora es " + HtmlUtils.htmlEscape(correo) + ". Si no has sido tú, "
                            + "contacta con un administrador.</p><p>Servicio de identidad</p></body></html>");
        }
        catch (RuntimeException e) {
            // the change stands; the notice is a courtesy
        }
    }
}
