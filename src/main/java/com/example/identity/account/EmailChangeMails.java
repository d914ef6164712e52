package com.example.identity.account;

import org.springframework.context.MessageSource;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.mail.Letter;
import com.example.identity.mail.Mailer;
import com.example.identity.web.Languages;

import static com.example.identity.mail.Letter.sentence;

/**
 * The two mails of an e-mail change ({@link EmailChanges}): the confirmation link to the new address, and the
 * notice to the old one once the change is made.
 */
@Component
class EmailChangeMails {

    private final Mailer mailer;
    private final MessageSource messages;
    private final String issuer;

    EmailChangeMails(Mailer mailer, MessageSource messages, IdentityProperties properties) {
        this.mailer = mailer;
        this.messages = messages;
        this.issuer = properties.issuerUrl();
    }

    /**
     * Sends {@code correo} the link that confirms it with {@code token}, in the request's language.
     *
     * @throws Mailer.MailNotSent when the mail could not be handed over
     */
    void sendLink(String correo, String name, String token) {
        String link = UriComponentsBuilder.fromUriString(issuer + Endpoints.ACCOUNT_EMAIL_CONFIRM).queryParam("token", token)
                .build().toUriString();
        Letter letter = new Letter(messages, Languages.current())
                .paragraph(sentence("mail.hello", name))
                .paragraph(sentence("mail.email-change.open"))
                .link(link, "mail.email-change.link")
                .paragraph(sentence("mail.email-change.ignore"));
        mailer.send(correo, letter.words("mail.email-change.subject"), letter.text(), letter.html());
    }

    /** Tells {@code old} that the account's address is now {@code correo}; a failure is ignored. */
    void notifyOldAddress(String old, String name, String correo) {
        try {
            Letter letter = new Letter(messages, Languages.current())
                    .paragraph(sentence("mail.hello", name))
                    .paragraph(sentence("mail.email-changed.now", correo));
            mailer.send(old, letter.words("mail.email-changed.subject"), letter.text(), letter.html());
        }
        catch (RuntimeException e) {
            // the change stands; the notice is a courtesy
        }
    }
}
