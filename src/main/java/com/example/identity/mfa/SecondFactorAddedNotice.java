package com.example.identity.mfa;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.web.util.HtmlUtils;

import com.example.identity.account.AccountService;
import com.example.identity.account.SecondFactorAdded;
import com.example.identity.mail.Mailer;
import com.example.identity.session.OpenSessions;

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
    static final String SUBJECT = "Se ha añadido un segundo factor a tu cuenta";

    private final OpenSessions sessions;
    private final AccountService accounts;
    private final Mailer mailer;
    private final Clock clock;

    SecondFactorAddedNotice(OpenSessions sessions, AccountService accounts, Mailer mailer, Clock clock) {
        this.sessions = sessions;
        this.accounts = accounts;
        this.mailer = mailer;
        this.clock = clock;
    }

    @TransactionalEventListener(fallbackExecution = true)
    void onSecondFactorAdded(SecondFactorAdded event) {
        sessions.endOthers(event.correo(), event.keepSessionId());
        String name = accounts.findById(event.userId()).map(u -> u.getPrimerNombre()).orElse("");
        String when = WHEN.format(clock.instant());
        String from = event.address() == null ? "una dirección desconocida" : event.address();
        String what = event.factor().description();
        try {
            mailer.send(event.correo(), SUBJECT,
                    "Hola, " + name + ":\n\nSe ha añadido " + what + " a tu cuenta " + event.correo() + " el " + when
                            + " desde " + from + ". Las demás sesiones de tu cuenta se han cerrado.\n\nSi no has sido tú, "
                            + "cambia tu contraseña ahora y revisa los factores de tu cuenta en \"Tu cuenta\" > "
                            + "\"Seguridad\", o contacta con un administrador.\n\nServicio de identidad\n",
                    "<!DOCTYPE html><html lang=\"es\"><body><p>Hola, " + HtmlUtils.htmlEscape(name) + ":</p><p>Se ha "
                            + "añadido " + what + " a tu cuenta " + HtmlUtils.htmlEscape(event.correo()) + " el " + when
                            + " desde " + HtmlUtils.htmlEscape(from) + ". Las demás sesiones de tu cuenta se han "
                            + "cerrado.</p><p>Si no has sido tú, cambia tu contraseña ahora y revisa los factores de tu "
                            + "cuenta en «Tu cuenta» &gt; «Seguridad», o contacta con un administrador.</p>"
                            + "<p>Servicio de identidad</p></body></html>");
        }
        catch (RuntimeException e) {
            // the factor stands and the other sessions ended; the notice is what failed
            log.warn("Could not send the new-second-factor notice for user #{}: {}", event.userId(),
                    e.getClass().getSimpleName());
        }
    }
}
