package com.example.identity.account;

import org.springframework.context.MessageSource;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.mail.Letter;
import com.example.identity.mail.Mailer;
import com.example.identity.web.Languages;

import static com.example.identity.mail.Letter.sentence;

/**
 * The mail that tells the owner of a just proved address what was taken off the account ({@link
 * UnprovenAddressProved}: the identities linked and the passkeys added before anyone proved the address), in the
 * request's language; sent after the commit, a failure ignored (the removal stands).
 */
@Component
class ProvedAddressMail {

    private final Mailer mailer;
    private final MessageSource messages;
    private final String issuer;

    ProvedAddressMail(Mailer mailer, MessageSource messages, IdentityProperties properties) {
        this.mailer = mailer;
        this.messages = messages;
        this.issuer = properties.issuerUrl();
    }

    void send(UnprovenAddressProved removed, String name) {
        try {
            Letter letter = new Letter(messages, Languages.current())
                    .paragraph(sentence("mail.hello", name))
                    .paragraph(sentence("mail.proved.why"));
            if (!removed.unlinked().isEmpty()) {
                letter.paragraph(sentence("mail.proved.unlinked", String.join(", ", removed.unlinked())));
            }
            if (removed.passkeys() > 0) {
                letter.paragraph(sentence("mail.proved.passkeys", removed.passkeys()));
            }
            letter.link(issuer + Endpoints.ACCOUNT_SECURITY, "mail.proved.link")
                    .paragraph(sentence("mail.proved.again"));
            mailer.send(removed.correo(), letter.words("mail.proved.subject"), letter.text(), letter.html());
        }
        catch (RuntimeException e) {
            // the removal stands; the notice is a courtesy
        }
    }
}
