package com.example.identity.recovery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountRecoveries;
import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;
import com.example.identity.web.Languages;

/**
 * Password recovery by e-mail (decisions §17). {@link #request} answers at once, whatever the address:
 * the lookup, the link and the mail happen afterwards on a small bounded executor, so neither the answer
 * nor its time says whether an account exists. A link is 256 random bits, stored as a digest, valid
 * {@link #LIFETIME}, single use; an account is sent at most {@link #PER_ACCOUNT_PER_HOUR} links an hour
 * (counted in the database, so on every instance). When {@value #QUEUE} requests are already waiting, a new
 * one is dropped: counted ({@code identity_password_recovery_dropped_total}) and logged as a warning.
 * {@link #reset} sets the new password with the rules of a password change, spends the link and every other
 * live link of the account, and ends every session.
 */
@Component
public class PasswordRecovery implements DisposableBean, Purge {

    private static final Logger log = LoggerFactory.getLogger(PasswordRecovery.class);

    /** How long a link works (decisions §17). */
    public static final Duration LIFETIME = Duration.ofMinutes(30);
    /** Links sent to one account per hour, whoever asks: a mailbox is not flooded from the outside. */
    static final int PER_ACCOUNT_PER_HOUR = 3;

    private final PasswordResetRepository resets;
    private final AccountRecoveries accounts;
    private final RecoveryLinkMail mail;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    /** Requests dropped because {@link #QUEUE} were already waiting: {@code identity_password_recovery_dropped_total}. */
    static final String DROPPED = "identity.password.recovery.dropped";
    /** Requests that may wait for the background threads; past that a request is dropped, never queued without bound. */
    static final int QUEUE = 500;

    private final Counter dropped;
    /** Two threads, {@link #QUEUE} requests waiting at most; a dropped one is counted and logged. */
    private final ThreadPoolExecutor background;

    PasswordRecovery(PasswordResetRepository resets, AccountRecoveries accounts, RecoveryLinkMail mail,
            TransactionTemplate transactions, ApplicationEventPublisher events, Clock clock, MeterRegistry registry) {
        this.dropped = Counter.builder(DROPPED)
                .description("Password recovery requests dropped: the background queue was full").register(registry);
        this.background = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                runnable -> {
                    Thread thread = new Thread(runnable, "password-recovery");
                    thread.setDaemon(true);
                    return thread;
                }, (task, executor) -> {
                    this.dropped.increment();
                    // the address is not logged: the answer did not say whether it has an account, nor does this
                    log.warn("Password recovery: {} requests already waiting, one dropped (no mail sent for it)", QUEUE);
                });
        this.resets = resets;
        this.accounts = accounts;
        this.mail = mail;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Someone asked for a link for {@code correo}: handled in the background; returns at once. The mail is in the
     * language of this request, read here: the background thread serves none.
     */
    public void request(String correo) {
        Locale language = Languages.current();
        background.execute(() -> {
            try {
                send(correo, language);
            }
            catch (RuntimeException e) {
                log.warn("Password recovery: no link sent ({})", e.getMessage());
            }
        });
    }

    private void send(String correo, Locale language) {
        Optional<UserAccount> account = accounts.findByEmail(correo).filter(UserAccount::isEnabled);
        if (account.isEmpty()) {
            return;
        }
        UserAccount user = account.get();
        String token = transactions.execute(status -> {
            // one request per account at a time, on every instance: the count below and the insert are not
            // raced by another request for the same account
            accounts.lock(user.getId());
            Instant now = clock.instant();
            if (resets.countSentSince(user.getId(), now.minus(Duration.ofHours(1))) >= PER_ACCOUNT_PER_HOUR) {
                return null;
            }
            String value = Secrets.randomUrlSafe(32);
            resets.save(new PasswordReset(user.getId(), Secrets.sha256Hex(value), now, now.plus(LIFETIME)));
            events.publishEvent(new AuditEvent(AuditEvent.Type.PASSWORD_RECOVERY_REQUESTED,
                    "usuario #" + user.getId() + " " + user.getCorreo(), user.getCorreo()));
            return value;
        });
        if (token == null) {
            log.info("Password recovery: account #{} was already sent {} links this hour", user.getId(),
                    PER_ACCOUNT_PER_HOUR);
            return;
        }
        mail.send(user, token, language);
    }

    /** Whether {@code token} is a link that still works (the page shows the form only then). */
    @Transactional(readOnly = true)
    public boolean isUsable(String token) {
        return find(token).isPresent();
    }

    private Optional<PasswordReset> find(String token) {
        if (token == null || !token.matches("[A-Za-z0-9_-]{43}")) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        return resets.findByTokenDigest(Secrets.sha256Hex(token)).filter(r -> r.isUsableAt(now));
    }

    /**
     * Sets {@code chosen} as the password of the link's account, in one transaction with spending the link.
     *
     * @return false when the link does not work (unknown, used, expired, or used meanwhile)
     * @throws AccountService.InvalidAccountException when the password breaks the rules (the link stays usable)
     */
    @Transactional
    public boolean reset(String token, String chosen) {
        Optional<PasswordReset> reset = find(token);
        if (reset.isEmpty()) {
            return false;
        }
        accounts.recoverPassword(reset.get().userId(), chosen);
        Instant now = clock.instant();
        if (resets.use(reset.get().id(), now) != 1) {
            throw new LinkUsedMeanwhile();
        }
        resets.endAll(reset.get().userId(), now);
        return true;
    }

    /** Another request used the same link first: this one's transaction is rolled back. */
    static final class LinkUsedMeanwhile extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    @Override
    public Kind kind() {
        return Kind.EXPIRED_CODES;
    }

    /** The retention job: links that expired before {@code cutoff}. */
    @Transactional
    @Override
    public int purge(Instant cutoff, Instant now) {
        return resets.deleteExpiredBefore(cutoff);
    }

    @Override
    public void destroy() {
        background.shutdown();
    }
}
