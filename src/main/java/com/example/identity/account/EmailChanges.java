package com.example.identity.account;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.audit.AuditEvent;
import com.example.identity.common.AfterCommit;
import com.example.identity.common.ClusterLock;
import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;
import com.example.identity.mail.Mailer;
import com.example.identity.session.OpenSessions;

/**
 * Changing an account's e-mail address (decisions §17): the password confirms the request, a single-use link
 * sent to the new address (24 hours, stored as a digest) confirms the mailbox, and only then does the
 * address change. Then every session of the account ends (they were opened under the old address), cached
 * tokens are looked up again on every instance (the profile at {@code /api/userinfo.php} shows the new
 * address at once), the passkeys follow the account, and the old address is told.
 */
@Component
public class EmailChanges implements Purge {

    static final Duration LIFETIME = Duration.ofHours(24);
    /** Requests of one account per {@link #BUDGET_PERIOD}: enough to fix a typo twice. */
    static final int PER_ACCOUNT_PER_HOUR = 3;
    /** Links sent to one address per {@link #BUDGET_PERIOD}, whichever accounts ask: a mailbox is not flooded. */
    static final int PER_ADDRESS_PER_HOUR = 3;
    static final Duration BUDGET_PERIOD = Duration.ofHours(1);
    /** The row of {@code cluster_locks} that takes the requests one at a time, on every instance (V32). */
    static final String LOCK = "email-changes";

    private final JdbcTemplate jdbc;
    private final UserAccountRepository users;
    private final AccountService accounts;
    private final EmailChangeMails mails;
    private final OpenSessions sessions;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final ClusterLock lock;

    EmailChanges(JdbcTemplate jdbc, UserAccountRepository users, AccountService accounts, EmailChangeMails mails,
            OpenSessions sessions, ApplicationEventPublisher events, Clock clock, ClusterLock lock) {
        this.jdbc = jdbc;
        this.lock = lock;
        this.users = users;
        this.accounts = accounts;
        this.mails = mails;
        this.sessions = sessions;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Sends the confirmation link to {@code newCorreo}, within the budgets: {@value #PER_ACCOUNT_PER_HOUR}
     * requests per account and {@value #PER_ADDRESS_PER_HOUR} links per new address an hour, counted in the
     * database under the {@value #LOCK} row of {@code cluster_locks} (migration V32), so every instance
     * shares them and two requests cannot both take the last one. The mail goes out after that transaction
     * commits, so the lock is never held while a mail server answers.
     *
     * @throws TooManyRequests when a budget is spent
     * @throws AccountService.InvalidAccountException with field {@code correo} or {@code contrasena}
     * @throws NotSent when the mail could not be handed over (the link is withdrawn)
     */
    public void request(long userId, String newCorreo, String password) {
        String correo = newCorreo == null ? "" : UserAccount.normalizeEmail(newCorreo);
        if (!AccountService.isValidEmail(correo)) {
            throw new AccountService.InvalidAccountException("correo", "Escribe una dirección de correo válida");
        }
        UserAccount user = users.findById(userId).orElseThrow();
        if (correo.equals(user.getCorreo())) {
            throw new AccountService.InvalidAccountException("correo", "Esa ya es tu dirección de correo");
        }
        if (!accounts.passwordMatches(userId, password)) {
            throw new AccountService.InvalidAccountException("contrasena", "La contraseña no es correcta");
        }
        // an address of another account is refused only at confirmation, so this answer does not tell
        // whether that address has an account here
        String token = Secrets.randomUrlSafe(32);
        String digest = Secrets.sha256Hex(token);
        lock.holding(LOCK, () -> {
            Instant now = clock.instant();
            Instant since = now.minus(BUDGET_PERIOD);
            long wait = Math.max(secondsToWait("user_id = ?", userId, PER_ACCOUNT_PER_HOUR, since, now),
                    secondsToWait("new_correo = ?", correo, PER_ADDRESS_PER_HOUR, since, now));
            if (wait > 0) {
                throw new TooManyRequests(wait);
            }
            jdbc.update("insert into email_changes (user_id, new_correo, token_digest, created_at, expires_at) "
                    + "values (?, ?, ?, ?, ?)", userId, correo, digest, Timestamp.from(now),
                    Timestamp.from(now.plus(LIFETIME)));
            events.publishEvent(new AuditEvent(AuditEvent.Type.EMAIL_CHANGE_REQUESTED,
                    "usuario #" + userId + " a " + correo));
            return null;
        });
        try {
            mails.sendLink(correo, user.getPrimerNombre(), token);
        }
        catch (Mailer.MailNotSent e) {
            // a link nobody received is withdrawn; the request stays counted (a failing mail server is not
            // a way around the budget)
            jdbc.update("update email_changes set expires_at = created_at where token_digest = ?", digest);
            throw new NotSent(e);
        }
    }

    /**
     * Seconds until the rows of {@code email_changes} matching {@code condition} since {@code since} fall
     * below {@code budget} (when the oldest of them leaves the window), or 0 when one more is allowed.
     */
    private long secondsToWait(String condition, Object value, int budget, Instant since, Instant now) {
        return jdbc.query("select count(*), min(created_at) from email_changes where " + condition
                + " and created_at > ?", rs -> {
                    rs.next();
                    if (rs.getLong(1) < budget) {
                        return 0L;
                    }
                    Instant oldest = rs.getObject(2, OffsetDateTime.class).toInstant();
                    long millis = Duration.between(now, oldest.plus(BUDGET_PERIOD)).toMillis();
                    return Math.max(1, (millis + 999) / 1000);
                }, value, Timestamp.from(since));
    }

    /** A budget of {@link #request} is spent: try again in {@link #retryAfterSeconds()}. */
    public static final class TooManyRequests extends AccountService.InvalidAccountException {

        private static final long serialVersionUID = 1L;
        private final long retryAfterSeconds;

        TooManyRequests(long retryAfterSeconds) {
            super("correo", "Demasiadas solicitudes de cambio de correo. Vuelve a intentarlo dentro de "
                    + minutes(retryAfterSeconds) + ".");
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public long retryAfterSeconds() {
            return retryAfterSeconds;
        }

        static String minutes(long seconds) {
            long minutes = Math.max(1, (seconds + 59) / 60);
            return minutes == 1 ? "1 minuto" : minutes + " minutos";
        }
    }

    /** The confirmation could not be handed to the mail server (or written): nothing was sent. */
    public static final class NotSent extends AccountService.InvalidAccountException {

        private static final long serialVersionUID = 1L;

        NotSent(Mailer.MailNotSent cause) {
            super("correo", "No hemos podido enviar el correo ahora. Vuelve a intentarlo más tarde.");
            initCause(cause);
        }
    }

    /** The new address a usable link confirms, for its page; empty when the link does not work. */
    @Transactional(readOnly = true)
    public Optional<String> pending(String token) {
        return find(token).map(row -> (String) row.get("new_correo"));
    }

    private Optional<Map<String, Object>> find(String token) {
        if (token == null || !token.matches("[A-Za-z0-9_-]{43}")) {
            return Optional.empty();
        }
        List<Map<String, Object>> rows = jdbc.queryForList("select id, user_id, new_correo from email_changes "
                + "where token_digest = ? and used_at is null and expires_at > ?", Secrets.sha256Hex(token),
                Timestamp.from(clock.instant()));
        return rows.stream().findFirst();
    }

    /** What a confirmation did. */
    public enum Outcome { CHANGED, LINK_UNUSABLE, ADDRESS_TAKEN }

    /** Confirms the change a link names: the address changes, once. */
    @Transactional
    public Outcome confirm(String token) {
        Optional<Map<String, Object>> row = find(token);
        if (row.isEmpty()) {
            return Outcome.LINK_UNUSABLE;
        }
        long id = ((Number) row.get().get("id")).longValue();
        long userId = ((Number) row.get().get("user_id")).longValue();
        String correo = (String) row.get().get("new_correo");
        if (users.findByCorreo(correo).isPresent()) {
            return Outcome.ADDRESS_TAKEN;
        }
        Instant now = clock.instant();
        if (jdbc.update("update email_changes set used_at = ? where id = ? and used_at is null", Timestamp.from(now), id) != 1) {
            return Outcome.LINK_UNUSABLE;
        }
        UserAccount user = users.findById(userId).filter(UserAccount::isEnabled).orElse(null);
        if (user == null) {
            return Outcome.LINK_UNUSABLE;
        }
        String old = user.getCorreo();
        user.changeEmail(correo, now);
        users.flush();
        followChange(userId, old, correo, correo);
        AfterCommit.onCommit(() -> mails.notifyOldAddress(old, user.getPrimerNombre(), correo));
        return Outcome.CHANGED;
    }

    /**
     * What follows an address change, wherever the row was changed (a confirmed link here, or the import of
     * the old system's change, migration/), in the caller's transaction, where {@code users} already holds
     * {@code correo}: the passkeys follow the account, every session opened under the old address ends (now
     * and at commit), cached tokens are looked up again on every instance ({@link AccountChanged}: the
     * profile shows the new address at once), and the trail records it with {@code actor}.
     */
    public void followChange(long userId, String old, String correo, String actor) {
        // the passkeys' user entity is named by the login name (passkey/ follows it)
        events.publishEvent(new AddressChanged(userId, old, correo));
        events.publishEvent(new AccountChanged(userId));
        events.publishEvent(new AuditEvent(AuditEvent.Type.EMAIL_CHANGED, "usuario #" + userId + " de " + old + " a " + correo,
                actor));
        AfterCommit.nowAndAfterCompletion(() -> sessions.endOthers(old, null));
    }

    @Override
    public Kind kind() {
        return Kind.EXPIRED_CODES;
    }

    /** The retention job: links that expired before {@code cutoff}. */
    @Transactional
    @Override
    public int purge(Instant cutoff, Instant now) {
        return jdbc.update("delete from email_changes where expires_at < ?", Timestamp.from(cutoff));
    }
}
