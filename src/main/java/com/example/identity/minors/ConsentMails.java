package com.example.identity.minors;

import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;

import org.springframework.context.MessageSource;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.mail.Letter;
import com.example.identity.mail.Mailer;

import static com.example.identity.mail.Letter.sentence;

/**
 * The mails to a parent (decisions §27), in text and HTML, in the language of the page where the child signed up,
 * written for someone who has never heard of this service: who asked, which service and what it is for, why their
 * permission, what happens until and after they answer. The request carries the single-use link that allows or
 * refuses the account; the confirmation of a consent, the link that withdraws it.
 */
@Component
class ConsentMails {

    private final Mailer mailer;
    private final MessageSource messages;
    private final String issuer;
    private final BirthDates birthDates;

    ConsentMails(Mailer mailer, MessageSource messages, IdentityProperties properties, BirthDates birthDates) {
        this.mailer = mailer;
        this.messages = messages;
        this.issuer = properties.issuerUrl();
        this.birthDates = birthDates;
    }

    private String link(String token) {
        return UriComponentsBuilder.fromUriString(issuer + Endpoints.PARENTAL_CONSENT).queryParam("token", token)
                .build().toUriString();
    }

    /** The request: who signed up with the parent's address, and the link that answers (7 days). */
    void sendRequest(ParentalConsents.Child child, String token) {
        String born = child.birth().format(DateTimeFormatter.ofLocalizedDate(FormatStyle.LONG).withLocale(child.language()));
        Letter letter = new Letter(messages, child.language())
                .paragraph(sentence("mail.hello.anonymous"))
                .paragraph(sentence("mail.tutor.who", child.primerNombre(), child.correo(), issuer))
                .paragraph(sentence("mail.tutor.why", born, birthDates.consentAge()))
                .paragraph(sentence("mail.tutor.open"))
                .link(link(token), "mail.tutor.link")
                .paragraph(sentence("mail.tutor.after"))
                .paragraph(sentence("mail.tutor.ignore"));
        mailer.send(child.tutor(), letter.words("mail.tutor.subject", child.primerNombre()), letter.text(), letter.html());
    }

    /** The consent given: what it allows, and the link that withdraws it, as long as it stands. */
    void sendGranted(ParentalConsents.Child child, String withdrawal) {
        Letter letter = new Letter(messages, child.language())
                .paragraph(sentence("mail.hello.anonymous"))
                .paragraph(sentence("mail.tutor-granted.done", child.primerNombre(), child.correo(), issuer))
                .paragraph(sentence("mail.tutor-granted.open"))
                .link(link(withdrawal), "mail.tutor-granted.link")
                .paragraph(sentence("mail.tutor-granted.keep"));
        mailer.send(child.tutor(), letter.words("mail.tutor-granted.subject", child.primerNombre()), letter.text(),
                letter.html());
    }
}
