package com.example.identity.registration;

import java.util.Locale;

import org.springframework.context.MessageSource;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.mail.Letter;
import com.example.identity.mail.Mailer;

import static com.example.identity.mail.Letter.sentence;

/**
 * The mails of a sign-up (decisions §18), in text and HTML: the confirmation link to a new address, and
 * to an address that already has an account, the notice that someone tried to sign up with it, with the links
 * to log in and to recover the password; for a guest keeping its progress (§24), its own link; in the language of
 * the page that asked for it, which the caller reads on the request's thread.
 */
@Component
class RegistrationMails {

    private final Mailer mailer;
    private final MessageSource messages;
    private final String issuer;

    RegistrationMails(Mailer mailer, MessageSource messages, IdentityProperties properties) {
        this.mailer = mailer;
        this.messages = messages;
        this.issuer = properties.issuerUrl();
    }

    /**
     * The single-use link that creates the account of {@code correo}, in {@code language}: the page's, read while
     * the request was served (the mail is written on a background thread, which serves none).
     */
    void sendLink(Locale language, String correo, String primerNombre, String token) {
        String link = UriComponentsBuilder.fromUriString(issuer + Endpoints.REGISTRATION_CONFIRM)
                .queryParam("token", token).build().toUriString();
        Letter letter = new Letter(messages, language)
                .paragraph(sentence("mail.hello", primerNombre))
                .paragraph(sentence("mail.signup.open", correo))
                .link(link, "mail.signup.link")
                .paragraph(sentence("mail.signup.ignore"));
        mailer.send(correo, letter.words("mail.signup.subject"), letter.text(), letter.html());
    }

    /**
     * The single-use link of a guest's sign-up (decisions §24), whether or not {@code correo} has an account: the page
     * it opens converts the guest, or says that the address is someone's and nothing was merged.
     */
    void sendGuestLink(Locale language, String correo, String primerNombre, String token) {
        String link = UriComponentsBuilder.fromUriString(issuer + Endpoints.REGISTRATION_CONFIRM)
                .queryParam("token", token).build().toUriString();
        Letter letter = new Letter(messages, language)
                .paragraph(sentence("mail.hello", primerNombre))
                .paragraph(sentence("mail.guest.open", correo))
                .link(link, "mail.guest.link")
                .paragraph(sentence("mail.guest.ignore"));
        mailer.send(correo, letter.words("mail.guest.subject"), letter.text(), letter.html());
    }

    /** Someone tried to sign up with {@code correo}, which already has an account. */
    void sendTaken(Locale language, String correo) {
        Letter letter = new Letter(messages, language)
                .paragraph(sentence("mail.hello.anonymous"))
                .paragraph(sentence("mail.taken.tried", correo))
                .links(new String[] { "mail.taken.login.text", "mail.taken.recover.text" },
                        new String[] { "mail.taken.login.link", "mail.taken.recover.link" },
                        new String[] { issuer + Endpoints.LOGIN, issuer + Endpoints.RECOVERY_REQUEST })
                .paragraph(sentence("mail.taken.ignore"));
        mailer.send(correo, letter.words("mail.taken.subject"), letter.text(), letter.html());
    }
}
