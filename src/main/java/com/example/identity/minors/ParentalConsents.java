package com.example.identity.minors;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;
import com.example.identity.common.AfterCommit;
import com.example.identity.common.ClusterLock;
import com.example.identity.crypto.Secrets;
import com.example.identity.web.Languages;

/**
 * Parental consent (decisions §27), owner of {@code parental_consents}. A sign-up under the consent age gave a parent's
 * address ({@link #checkTutor}); when the child's own link makes the account ({@link #accountMade}) it is
 * {@value #PENDING} and the parent is mailed a single-use link to {@code /tutor/consentir} valid {@link #ANSWER_WITHIN}
 * (256 random bits, stored as a digest), at most {@value #PER_ADDRESS_PER_HOUR} such mails to one address an hour,
 * counted under the {@value #LOCK} row on every instance, as the sign-up's mails are. The parent's answer
 * ({@link ParentalDecisions}) grants it ({@value #GRANTED}: the confirmation mail carries the link that withdraws it),
 * or refuses it (the account is deleted); a withdrawal makes it {@value #WITHDRAWN} (the account is disabled).
 */
@Service
public class ParentalConsents {

    private static final Logger log = LoggerFactory.getLogger(ParentalConsents.class);

    public static final String PENDING = "pendiente";
    public static final String GRANTED = "concedido";
    public static final String WITHDRAWN = "retirado";
    /** §27: the parent's link works 7 days; an account still waiting then is deleted. */
    static final Duration ANSWER_WITHIN = Duration.ofDays(7);
    static final int PER_ADDRESS_PER_HOUR = 3;
    static final String LOCK = "parental-consents";

    /** The form's field. */
    public static final String FIELD = "correo_tutor";
    static final String TUTOR_MISSING = "Como tienes menos de %d años, escribe el correo de tu madre, padre o tutor: le pediremos permiso";
    static final String TUTOR_INVALID = "Escribe una dirección de correo válida";
    static final String TUTOR_OWN = "Escribe el correo de tu madre, padre o tutor, no el tuyo";
    /** The same refusals worded for an admin who dates an account (D50). */
    static final String ADMIN_TUTOR_MISSING = "Con esa fecha tiene menos de %d años: escribe también el correo de su "
            + "madre, padre o tutor (correo_tutor)";
    static final String ADMIN_TUTOR_INVALID = "El correo de su madre, padre o tutor (correo_tutor) no es una dirección válida";
    static final String ADMIN_TUTOR_OWN = "El correo de su madre, padre o tutor (correo_tutor) no puede ser el de la propia "
            + "cuenta";

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final BirthDates birthDates;
    private final Minors minors;
    private final ConsentMails mails;
    private final ClusterLock lock;
    private final AccountService accounts;

    ParentalConsents(JdbcTemplate jdbc, Clock clock, BirthDates birthDates, Minors minors, ConsentMails mails,
            ClusterLock lock, AccountService accounts) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.birthDates = birthDates;
        this.minors = minors;
        this.mails = mails;
        this.lock = lock;
        this.accounts = accounts;
    }

    /** The sign-up form's answer to decisions §27: the birth date, and the parent's address under the consent age (else null). */
    public record SignUpAge(LocalDate birth, @Nullable String tutor) {
    }

    /**
     * The birth date and the parent's address of a sign-up, checked ({@link BirthDates#parse}, {@link #checkTutor}).
     *
     * @throws RefusedField with field {@value BirthDates#FIELD} or {@value #FIELD}
     */
    public SignUpAge checkSignUp(@Nullable String typedBirth, @Nullable String typedTutor, String childAddress) {
        LocalDate birth = birthDates.parse(typedBirth);
        return new SignUpAge(birth, checkTutor(birth, typedTutor, childAddress));
    }

    /** {@code identity.minors.consent-age}. */
    public int consentAge() {
        return birthDates.consentAge();
    }

    /**
     * The parent's address a sign-up under the consent age must give, checked; null for anyone else (what they typed
     * there is ignored).
     *
     * @param childAddress the sign-up's own address (already normalised), which the parent's cannot be
     * @throws RefusedField with field {@value #FIELD}
     */
    public @Nullable String checkTutor(LocalDate birth, @Nullable String typed, String childAddress) {
        return birthDates.needsConsent(birth) ? tutor(typed, childAddress, TUTOR_MISSING, TUTOR_INVALID, TUTOR_OWN) : null;
    }

    /** {@link #checkTutor}'s rule with the admin's wording (D50): the parent's address of an account an admin dates. */
    String checkTutorForAdmin(@Nullable String typed, String childAddress) {
        return tutor(typed, childAddress, ADMIN_TUTOR_MISSING, ADMIN_TUTOR_INVALID, ADMIN_TUTOR_OWN);
    }

    private String tutor(@Nullable String typed, String childAddress, String missing, String invalid, String own) {
        String tutor = typed == null ? "" : typed.strip();
        if (tutor.isEmpty()) {
            throw new RefusedField(FIELD, missing.formatted(birthDates.consentAge()));
        }
        if (!AccountService.isValidEmail(tutor)) {
            throw new RefusedField(FIELD, invalid);
        }
        tutor = UserAccount.normalizeEmail(tutor);
        if (tutor.equals(childAddress)) {
            throw new RefusedField(FIELD, own);
        }
        return tutor;
    }

    /**
     * A sign-up's account was made (in the caller's transaction): its birth date is kept, and under the consent age
     * its consent waits ({@value #PENDING}) and, once the transaction committed, the parent is mailed (in the page's
     * language) unless the address had its hour's mails.
     */
    @Transactional
    public void accountMade(UserAccount account, @Nullable LocalDate birth, @Nullable String tutor) {
        if (birth == null) {
            return;
        }
        birthDates.record(account.getId(), birth);
        minors.changed(account.getId()); // a guest converted now may have been cached without a date
        if (tutor == null || !birthDates.needsConsent(birth)) {
            return;
        }
        ask(account.getId(), account.getPrimerNombre(), account.getCorreo(), birth, tutor);
    }

    /**
     * The consent of the account {@code userId}, which has none, waits ({@value #PENDING}) from now for
     * {@link #ANSWER_WITHIN}, in the caller's transaction (which evicts {@link Minors}' cache); once it committed, the
     * parent is mailed in the language of the page (or the API request) unless the address had its hour's mails. A
     * sign-up's account, and an account an admin dated a child's (D50).
     */
    void ask(long userId, String primerNombre, String correo, LocalDate birth, String tutor) {
        lock.holdInThisTransaction(LOCK);
        Instant now = clock.instant();
        String token = Secrets.randomUrlSafe(32);
        long sent = askedThisHour(tutor, now);
        Locale language = Languages.current();
        jdbc.update("insert into parental_consents (user_id, correo_tutor, estado, language, request_digest, requested_at, "
                + "expires_at) values (?, ?, ?, ?, ?, ?, ?)", userId, tutor, PENDING, language.toLanguageTag(),
                Secrets.sha256Hex(token), Timestamp.from(now), Timestamp.from(now.plus(ANSWER_WITHIN)));
        if (sent >= PER_ADDRESS_PER_HOUR) {
            // the addresses are not logged; the account waits, and goes after 7 days without an answer
            log.info("Parental consent: a parent's address was already sent {} mails this hour; none sent", PER_ADDRESS_PER_HOUR);
            return;
        }
        Child child = new Child(userId, primerNombre, correo, birth, tutor, language);
        AfterCommit.onCommit(() -> mails.sendRequest(child, token));
    }

    /**
     * An admin dated the account {@code userId} at or above the consent age (D50): a waiting request is dropped (its link
     * stops working, no mail, the 7 days no longer run) and so is a granted consent (no longer needed; its withdrawal
     * link stops working); a withdrawn one stays, the record of why the account was disabled. In the caller's
     * transaction, which evicts {@link Minors}' cache.
     */
    void notNeeded(long userId) {
        jdbc.update("delete from parental_consents where user_id = ? and estado in (?, ?)", userId, PENDING, GRANTED);
    }

    /** The requests to the parent's address {@code tutor} within the hour before {@code now}, mailed or not. */
    private long askedThisHour(String tutor, Instant now) {
        Long asked = jdbc.queryForObject("select count(*) from parental_consents where correo_tutor = ? and requested_at > ?",
                Long.class, tutor, Timestamp.from(now.minus(Duration.ofHours(1))));
        return asked == null ? 0 : asked;
    }

    /** What {@link #resend} did: mailed a new link, asked to wait (the hour's mails were spent), or found nothing waiting. */
    public enum Resend { SENT, WAIT, NONE }

    /**
     * The child asks again from their account page: while the request waits (within its 7 days), the parent is mailed
     * a new link (the old one stops working), in the language of the sign-up; at most one an hour for one request and
     * {@value #PER_ADDRESS_PER_HOUR} an hour to one address, as at the sign-up, so the page cannot flood a mailbox.
     * The request's {@code requested_at} becomes the time of its last mail; its 7 days do not move.
     */
    @Transactional
    public Resend resend(long userId) {
        lock.holdInThisTransaction(LOCK);
        Instant now = clock.instant();
        record Row(String tutor, String language, Instant asked) {
        }
        List<Row> rows = jdbc.query("select correo_tutor, language, requested_at from parental_consents where user_id = ? "
                + "and estado = ? and request_digest is not null and expires_at > ?", (rs, n) -> new Row(rs.getString(1),
                        rs.getString(2), rs.getTimestamp(3).toInstant()), userId, PENDING, Timestamp.from(now));
        Optional<UserAccount> account = accounts.findById(userId);
        Optional<LocalDate> birth = birthDates.of(userId);
        if (rows.isEmpty() || account.isEmpty() || birth.isEmpty()) {
            return Resend.NONE;
        }
        Row row = rows.get(0);
        if (row.asked().isAfter(now.minus(Duration.ofHours(1))) || askedThisHour(row.tutor(), now) >= PER_ADDRESS_PER_HOUR) {
            return Resend.WAIT;
        }
        String token = Secrets.randomUrlSafe(32);
        jdbc.update("update parental_consents set request_digest = ?, requested_at = ? where user_id = ? and estado = ?",
                Secrets.sha256Hex(token), Timestamp.from(now), userId, PENDING);
        Child child = new Child(userId, account.get().getPrimerNombre(), account.get().getCorreo(), birth.get(), row.tutor(),
                Locale.forLanguageTag(row.language()));
        AfterCommit.onCommit(() -> mails.sendRequest(child, token));
        return Resend.SENT;
    }

    /** The child a link is about: the account, its name and address, the birth date, the parent's address, the mails' language. */
    public record Child(long userId, String primerNombre, String correo, LocalDate birth, String tutor, Locale language) {
    }

    /** Which of the two links a token is: the request's (allow or deny), or the confirmation mail's (withdraw). */
    public enum LinkKind { REQUEST, WITHDRAWAL }

    /** A link that still works: whose, and which. */
    public record Link(Child child, LinkKind kind) {
    }

    /** The link {@code token} names, while it works (a request within its 7 days, a withdrawal while the consent stands). */
    @Transactional(readOnly = true)
    public Optional<Link> find(@Nullable String token) {
        if (token == null || !token.matches("[A-Za-z0-9_-]{43}")) {
            return Optional.empty();
        }
        String digest = Secrets.sha256Hex(token);
        record Row(long userId, String tutor, String language, boolean request) {
        }
        List<Row> rows = jdbc.query("select user_id, correo_tutor, language, request_digest from parental_consents "
                + "where (request_digest = ? and estado = ? and expires_at > ?) or (withdraw_digest = ? and estado = ?)",
                (rs, n) -> new Row(rs.getLong(1), rs.getString(2), rs.getString(3), digest.equals(rs.getString(4))),
                digest, PENDING, Timestamp.from(clock.instant()), digest, GRANTED);
        List<Link> found = rows.stream().flatMap(row -> accounts.findById(row.userId()).stream().map(user -> new Link(
                new Child(row.userId(), user.getPrimerNombre(), user.getCorreo(), birthDates.of(row.userId()).orElseThrow(),
                        row.tutor(), Locale.forLanguageTag(row.language())),
                row.request() ? LinkKind.REQUEST : LinkKind.WITHDRAWAL))).toList();
        return found.stream().findFirst();
    }

    /**
     * The parent said yes: {@value #GRANTED}, the request's link spent, a withdrawal link made (returned, for the
     * confirmation mail); empty when the request was answered meanwhile.
     */
    @Transactional
    public Optional<String> grant(long userId) {
        String withdrawal = Secrets.randomUrlSafe(32);
        int changed = jdbc.update("update parental_consents set estado = ?, request_digest = null, withdraw_digest = ?, "
                + "decided_at = ? where user_id = ? and estado = ? and request_digest is not null", GRANTED,
                Secrets.sha256Hex(withdrawal), Timestamp.from(clock.instant()), userId, PENDING);
        minors.changed(userId);
        return changed == 1 ? Optional.of(withdrawal) : Optional.empty();
    }

    /** The parent said no (the caller deletes the account): the request's link spent; false when answered meanwhile. */
    @Transactional
    public boolean refuse(long userId) {
        int changed = jdbc.update("update parental_consents set request_digest = null, decided_at = ? where user_id = ? "
                + "and estado = ? and request_digest is not null", Timestamp.from(clock.instant()), userId, PENDING);
        minors.changed(userId);
        return changed == 1;
    }

    /** The parent withdrew the consent (the caller disables the account); false when it was withdrawn already. */
    @Transactional
    public boolean withdraw(long userId) {
        int changed = jdbc.update("update parental_consents set estado = ?, withdraw_digest = null, decided_at = ? "
                + "where user_id = ? and estado = ?", WITHDRAWN, Timestamp.from(clock.instant()), userId, GRANTED);
        minors.changed(userId);
        return changed == 1;
    }

    /**
     * The request of {@code userId} expired unanswered at {@code now}: its link spent, so that a parent's answer at the
     * same moment finds nothing (the caller deletes the account); false when it was answered meanwhile.
     */
    @Transactional
    public boolean expire(long userId, Instant now) {
        int changed = jdbc.update("update parental_consents set request_digest = null where user_id = ? and estado = ? "
                + "and expires_at <= ? and request_digest is not null", userId, PENDING, Timestamp.from(now));
        minors.changed(userId);
        return changed == 1;
    }

    /** The accounts whose parent did not answer within 7 days (at most {@code limit}, the oldest first). */
    List<Long> unanswered(Instant now, int limit) {
        return jdbc.queryForList("select user_id from parental_consents where estado = ? and expires_at <= ? "
                + "order by expires_at, user_id fetch first " + limit + " rows only", Long.class, PENDING, Timestamp.from(now));
    }

    /** The consent of {@code userId} as the data export shows it: the state and the parent's address, or empty. */
    public Optional<Consent> of(long userId) {
        return jdbc.query("select estado, correo_tutor, requested_at, decided_at from parental_consents where user_id = ?",
                (rows, n) -> new Consent(rows.getString(1), rows.getString(2), rows.getTimestamp(3).toInstant(),
                        rows.getTimestamp(4) == null ? null : rows.getTimestamp(4).toInstant()), userId)
                .stream().findFirst();
    }

    /** A consent: its state, the parent's address, when it was asked and answered. */
    public record Consent(String estado, String correoTutor, Instant requestedAt, @Nullable Instant decidedAt) {
    }
}
