package com.example.identity.registration;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionAspectSupport;

import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;
import com.example.identity.common.ClusterLock;
import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;
import com.example.identity.minors.BirthDates;
import com.example.identity.minors.ParentalConsents;
import com.example.identity.web.Languages;

/**
 * Sign-up (decisions §18). {@link #request} checks the form, hashes the password (the same work whatever the
 * address) and answers at once; the lookup and the mail happen afterwards on a small bounded executor, so
 * neither the answer nor its time says whether the address has an account. A new address is sent a
 * single-use link (256 random bits, stored as a digest, valid {@link #LIFETIME}); an address that has an
 * account is told that someone tried. Either way one address gets at most {@value #PER_ADDRESS_PER_HOUR}
 * mails an hour, counted in {@code pending_registrations} under the {@value #LOCK} row of
 * {@code cluster_locks}, so every instance counts the same rows. The account exists only once the link is
 * used ({@link #confirm}).
 */
@Component
class Registrations implements Purge, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(Registrations.class);

    static final Duration LIFETIME = Duration.ofHours(24);
    /** Mails sent to one address per hour, whoever asks: a mailbox is not flooded from the outside. */
    static final int PER_ADDRESS_PER_HOUR = 3;
    static final String LOCK = "registrations";
    /** Requests that may wait for the background threads; past that one is dropped (logged), never queued without bound. */
    static final int QUEUE = 500;

    private final JdbcTemplate jdbc;
    private final AccountService accounts;
    private final RegistrationMails mails;
    private final ClusterLock lock;
    private final Clock clock;
    private final ThreadPoolExecutor background;
    private final IdentitySignUp.Links links;
    private final GuestSignUps guestSignUps;
    private final ParentalConsents minors;

    Registrations(JdbcTemplate jdbc, AccountService accounts, RegistrationMails mails, ClusterLock lock, Clock clock,
            IdentitySignUp.Links links, GuestSignUps guestSignUps, ParentalConsents minors) {
        this.minors = minors;
        this.links = links;
        this.guestSignUps = guestSignUps;
        this.jdbc = jdbc;
        this.accounts = accounts;
        this.mails = mails;
        this.lock = lock;
        this.clock = clock;
        this.background = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                runnable -> {
                    Thread thread = new Thread(runnable, "registration");
                    thread.setDaemon(true);
                    return thread;
                }, (task, executor) -> log.warn("Sign-up: {} requests already waiting, one dropped (no mail sent)", QUEUE));
    }

    /**
     * A checked sign-up: the password hashed now, then the rest in the background; returns at once.
     *
     * @param continueTo the checked authorization request that led here (a local path), or null
     * @param guestId the guest whose progress it keeps (decisions §24: its link converts that account), or null
     */
    void request(SignUpForm form, @Nullable String continueTo, @Nullable Long guestId) {
        // a sign-up with another provider's identity has no password: the same hashing work all the same
        String hash = accounts.hash(form.password() == null ? Secrets.randomUrlSafe(32) : form.password());
        Locale language = Languages.current(); // the page's language; the background thread serves no request
        background.execute(() -> {
            try {
                send(form, hash, continueTo, language, guestId);
            }
            catch (RuntimeException e) {
                log.warn("Sign-up: no mail sent ({})", e.getClass().getSimpleName());
            }
        });
    }

    /**
     * The row and the mail of a sign-up, under the per-address budget: a new address gets the link, a taken one the
     * notice; a guest's (decisions §24) its link either way, whose page tells the mailbox alone which it is.
     */
    private void send(SignUpForm form, String hash, @Nullable String continueTo, Locale language, @Nullable Long guestId) {
        String token = Secrets.randomUrlSafe(32);
        String digest = Secrets.sha256Hex(token);
        Boolean taken = lock.holding(LOCK, () -> {
            Instant now = clock.instant();
            Long sent = jdbc.queryForObject("select count(*) from pending_registrations where correo = ? and created_at > ?",
                    Long.class, form.correo(), Timestamp.from(now.minus(Duration.ofHours(1))));
            if (sent != null && sent >= PER_ADDRESS_PER_HOUR) {
                return null;
            }
            boolean exists = accounts.findByEmail(form.correo()).isPresent();
            boolean link = !exists || guestId != null;
            var identity = link ? form.identity() : null;
            jdbc.update("insert into pending_registrations (correo, primer_nombre, password_hash, token_digest, "
                    + "continue_to, created_at, expires_at, guest_id, fecha_nacimiento, correo_tutor) "
                    + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    form.correo(), link ? form.primerNombre() : null, exists || identity != null ? null : hash,
                    link ? digest : null, link ? continueTo : null, Timestamp.from(now),
                    Timestamp.from(now.plus(LIFETIME)), guestId,
                    link && form.fechaNacimiento() != null ? Date.valueOf(form.fechaNacimiento()) : null,
                    link ? form.correoTutor() : null);
            if (identity != null) {
                jdbc.update("insert into pending_identities (token_digest, provider, subject, expires_at) values (?, ?, ?, ?)",
                        digest, identity.provider(), identity.subject(), Timestamp.from(now.plus(LIFETIME)));
            }
            return exists;
        });
        if (taken == null) {
            // the address is not logged: the answer did not say whether it has an account, nor does this
            log.info("Sign-up: an address was already sent {} mails this hour; none sent", PER_ADDRESS_PER_HOUR);
        }
        else if (guestId != null) {
            mails.sendGuestLink(language, form.correo(), form.primerNombre(), token);
        }
        else if (taken) {
            mails.sendTaken(language, form.correo());
        }
        else {
            mails.sendLink(language, form.correo(), form.primerNombre(), token);
        }
    }

    /** A password the mailbox's owner chose on the link's page, hashed with the current setting. */
    String hash(String password) {
        return accounts.hash(password);
    }

    /**
     * A sign-up waiting for its link: the address, the name typed with it, the authorization request that led to
     * it (or null), the identity of another provider the link will link (D38; or null), and the guest it converts
     * (decisions §24: its name; null for any other sign-up).
     */
    record Pending(String correo, String primerNombre, @Nullable String continueTo, @Nullable String provider,
            @Nullable String subject, @Nullable String guestName) {

        /** Whether whoever typed the sign-up chose a password (not a sign-up with another provider's identity). */
        boolean typistChosePassword() {
            return provider == null;
        }
    }

    /** The sign-up a link that still works names (the page shows the button only then), or a guest's refusal. */
    @Transactional(readOnly = true)
    public Confirmation pending(@Nullable String token) {
        Optional<Map<String, Object>> row = find(token);
        if (row.isEmpty()) {
            return new Confirmation(Outcome.LINK_UNUSABLE, null, null, null);
        }
        String correo = (String) row.get().get("correo");
        String guestName = null;
        if (row.get().get("guest_id") instanceof Number guestId) {
            var guest = guestSignUps.state(guestId.longValue(), correo);
            if (guest.refused() != null) {
                return new Confirmation(guest.refused(), null, null, null);
            }
            guestName = guest.guestName();
        }
        return new Confirmation(Outcome.PENDING, null, null, new Pending(correo, (String) row.get().get("primer_nombre"),
                (String) row.get().get("continue_to"), (String) row.get().get("provider"), (String) row.get().get("subject"),
                guestName));
    }

    /**
     * The mailbox's owner refuses a sign-up they did not ask for (issue 39): nothing is created, and nothing of
     * it is left to use: the link, the name, the password's hash, the authorization request and the identity to
     * link go. The row itself stays, spent, as a mail sent to the address: the hour's budget of mails to it
     * ({@value #PER_ADDRESS_PER_HOUR}) still counts it, or whoever typed it could mail the address again at once.
     *
     * @return whether the link still named a sign-up
     */
    @Transactional
    public boolean refuse(@Nullable String token) {
        Optional<Map<String, Object>> row = find(token);
        if (row.isEmpty()) {
            return false;
        }
        String digest = Secrets.sha256Hex(token);
        jdbc.update("delete from pending_identities where token_digest = ?", digest);
        return jdbc.update("update pending_registrations set used_at = ?, token_digest = null, primer_nombre = null, "
                + "password_hash = null, continue_to = null where id = ? and used_at is null",
                Timestamp.from(clock.instant()), ((Number) row.get().get("id")).longValue()) == 1;
    }

    private Optional<Map<String, Object>> find(@Nullable String token) {
        if (token == null || !token.matches("[A-Za-z0-9_-]{43}")) {
            return Optional.empty();
        }
        List<Map<String, Object>> rows = jdbc.queryForList("select r.id, r.correo, r.primer_nombre, r.password_hash, r.continue_to, "
                + "r.guest_id, r.fecha_nacimiento, r.correo_tutor, i.provider, i.subject "
                + "from pending_registrations r left join pending_identities i on i.token_digest = r.token_digest "
                + "where r.token_digest = ? and r.used_at is null and r.expires_at > ?",
                Secrets.sha256Hex(token), Timestamp.from(clock.instant()));
        return rows.stream().findFirst();
    }

    /**
     * What a confirmation did: the new account (or the guest made a full one) and where to continue, or why not; for
     * the page before it, the sign-up it is about to confirm.
     */
    record Confirmation(Outcome outcome, @Nullable UserAccount account, @Nullable String continueTo,
            @Nullable Pending pending) {
    }

    /** {@code GUEST_ADDRESS_TAKEN}: a guest's sign-up with an address that has an account (nothing merged). */
    enum Outcome { PENDING, CREATED, CONVERTED, LINK_UNUSABLE, ADDRESS_TAKEN, GUEST_ADDRESS_TAKEN }

    /**
     * Uses the link: the account is created (role user, address proved), once; with the password that the
     * mailbox's owner chose on the link's page ({@code chosenHash}, already hashed) instead of the one typed at
     * the sign-up, when they chose one. A guest's sign-up (decisions §24) converts that guest instead, the same
     * account, and nothing when the address has an account or the guest is gone.
     *
     * @throws AccountService.EmailAlreadyUsedException when another sign-up of the address made the account at
     *     the same moment (nothing of this one is kept: the link still leads to the taken-address answer)
     */
    @Transactional
    public Confirmation confirm(@Nullable String token, @Nullable String chosenHash) {
        Optional<Map<String, Object>> row = find(token);
        if (row.isEmpty()) {
            return new Confirmation(Outcome.LINK_UNUSABLE, null, null, null);
        }
        long id = ((Number) row.get().get("id")).longValue();
        String correo = (String) row.get().get("correo");
        boolean guest = row.get().get("guest_id") != null;
        if (accounts.findByEmail(correo).isPresent()) {
            // another sign-up of the same address, or an admin, made the account first: the link is spent (a guest's:
            // the address was someone's, nothing is merged, the guest stays a guest)
            jdbc.update("update pending_registrations set used_at = ? where id = ?", Timestamp.from(clock.instant()), id);
            return new Confirmation(guest ? Outcome.GUEST_ADDRESS_TAKEN : Outcome.ADDRESS_TAKEN, null, null, null);
        }
        if (jdbc.update("update pending_registrations set used_at = ? where id = ? and used_at is null",
                Timestamp.from(clock.instant()), id) != 1) {
            return new Confirmation(Outcome.LINK_UNUSABLE, null, null, null);
        }
        String provider = (String) row.get().get("provider");
        String name = (String) row.get().get("primer_nombre");
        String subject = (String) row.get().get("subject");
        LocalDate birth = BirthDates.dateOf(row.get().get("fecha_nacimiento"));
        String tutor = (String) row.get().get("correo_tutor");
        if (row.get().get("guest_id") instanceof Number guestId) {
            Confirmation converted = guestSignUps.convert(guestId.longValue(), name, correo,
                    chosenHash != null ? chosenHash : (String) row.get().get("password_hash"), provider, subject);
            if (converted.outcome() == Outcome.CONVERTED) {
                minors.accountMade(converted.account(), birth, tutor); // a child's progress waits for the parent (D49)
            }
            return converted;
        }
        UserAccount account;
        if (provider == null) {
            account = accounts.createSignedUp(name, correo,
                    chosenHash != null ? chosenHash : (String) row.get().get("password_hash"));
        }
        else {
            // another provider's identity (D38): the address is proved by this link, the identity by its login
            account = accounts.createFederated(name, correo, true, provider);
            if (!links.link(account.getId(), provider, subject)) {
                // linked to another account meanwhile (a second sign-up's link used first): nothing is created
                TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
                return new Confirmation(Outcome.LINK_UNUSABLE, null, null, null);
            }
        }
        minors.accountMade(account, birth, tutor); // the birth date; under the consent age, the parent's mail
        return new Confirmation(Outcome.CREATED, account, (String) row.get().get("continue_to"), null);
    }

    @Override
    public Kind kind() {
        return Kind.EXPIRED_CODES;
    }

    /** The retention job: sign-ups that expired before {@code cutoff} (used or not). */
    @Transactional
    @Override
    public int purge(Instant cutoff, Instant now) {
        jdbc.update("delete from pending_identities where expires_at < ?", Timestamp.from(cutoff));
        return jdbc.update("delete from pending_registrations where expires_at < ?", Timestamp.from(cutoff));
    }

    @Override
    public void destroy() {
        background.shutdown();
    }
}
