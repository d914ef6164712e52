package com.example.identity.mfa;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.MessageSource;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

import com.example.identity.account.AccountService;
import com.example.identity.account.SecondFactorAdded;
import com.example.identity.mail.Letter;
import com.example.identity.mail.Mailer;
import com.example.identity.session.OpenSessions;
import com.example.identity.web.Languages;

import static com.example.identity.mail.Letter.sentence;

/**
 * What follows a new second factor on an account, wherever it was added ({@link SecondFactorAdded}): every
 * other session of the account ends, on every instance (the one that added it stays), and the address gets an
 * e-mail saying what was added, when and from where, so an owner whose session was used by someone else learns
 * it. Runs once the change committed; the e-mail is a notice, so a mail server that is down costs a warning in
 * the log, not the change.
 */
@Component
class SecondFactorAddedNotice {

    private static final Logger log = LoggerFactory.getLogger(SecondFactorAddedNotice.class);
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    private final OpenSessions sessions;
    private final AccountService accounts;
    private final Mailer mailer;
    private final MessageSource messages;
    private final Clock clock;

    SecondFactorAddedNotice(OpenSessions sessions, AccountService accounts, Mailer mailer, MessageSource messages,
            Clock clock) {
        this.sessions = sessions;
        this.accounts = accounts;
        this.mailer = mailer;
        this.messages = messages;
        this.clock = clock;
    }

    @TransactionalEventListener(fallbackExecution = true)
    void onSecondFactorAdded(SecondFactorAdded event) {
        sessions.endOthers(event.correo(), event.keepSessionId());
        String name = accounts.findById(event.userId()).map(u -> u.getPrimerNombre()).orElse("");
        String when = WHEN.format(clock.instant());
        try {
            // the request that added the factor is still this thread's: its language
            Letter letter = new Letter(messages, Languages.current());
            String from = event.address() == null ? letter.words("mail.second-factor.unknown-address") : event.address();
            String what = letter.words("mail.second-factor." + event.factor().name());
            letter.paragraph(sentence("mail.hello", name))
                    .paragraph(sentence("mail.second-factor.added", what, event.correo(), when, from))
                    .paragraph(sentence("mail.second-factor.not-you"));
            mailer.send(event.correo(), letter.words("mail.second-factor.subject"), letter.text(), letter.html());
        }
        catch (RuntimeException e) {
            // the factor stands and the other sessions ended; the notice is what failed
            log.warn("Could not send the new-second-factor notice for user #{}: {}", event.userId(),
                    e.getClass().getSimpleName());
        }
    }
}
