package com.example.identity.recovery;

import java.util.Locale;

import org.springframework.context.MessageSource;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.account.UserAccount;
import com.example.identity.mail.Letter;
import com.example.identity.mail.Mailer;

import static com.example.identity.mail.Letter.sentence;

/**
 * The mail of a password recovery link ({@link PasswordRecovery}): the link to the reset page, in text and HTML, in
 * the language of the request that asked for it.
 */
@Component
class RecoveryLinkMail {

    private final Mailer mailer;
    private final MessageSource messages;
    private final String issuer;

    RecoveryLinkMail(Mailer mailer, MessageSource messages, IdentityProperties properties) {
        this.mailer = mailer;
        this.messages = messages;
        this.issuer = properties.issuerUrl();
    }

    /** Sends {@code user} the link that resets the password with {@code token}, in {@code language}. */
    void send(UserAccount user, String token, Locale language) {
        String link = UriComponentsBuilder.fromUriString(issuer + Endpoints.RECOVERY_RESET).queryParam("token", token)
                .build().toUriString();
        Letter letter = letter(messages, language, user, link);
        mailer.send(user.getCorreo(), letter.words("mail.recovery.subject"), letter.text(), letter.html());
    }

    static Letter letter(MessageSource messages, Locale language, UserAccount user, String link) {
        return new Letter(messages, language)
                .paragraph(sentence("mail.hello", user.getPrimerNombre()))
                .paragraph(sentence("mail.recovery.asked", user.getCorreo()), sentence("mail.recovery.open"))
                .link(link, "mail.recovery.link")
                .paragraph(sentence("mail.recovery.once"), sentence("mail.recovery.ignore"));
    }
}
