package com.example.identity.minors;

import java.sql.Date;
import java.time.Clock;
import java.time.LocalDate;
import java.time.Period;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Birth dates and ages (decisions §27), owner of {@code birth_dates}. An age is counted in whole years on the
 * service's {@link Clock}, the day in Spain's time ({@link #ZONE}, D49): on the day a person turns 14 they are 14.
 * An account without a birth date (made before, by an admin, by the import) is an adult.
 */
@Component
public class BirthDates {

    /** Whose calendar day counts (D49): the service follows Spanish law, so a birthday starts at midnight there. */
    public static final ZoneId ZONE = ZoneId.of("Europe/Madrid");
    /** Below it a typed date is a slip of the keyboard, not a birth date. */
    static final LocalDate EARLIEST = LocalDate.of(1900, 1, 1);
    /** Under this age {@code menor} is true. */
    public static final int ADULT_AGE = 18;

    /** The form's field. */
    public static final String FIELD = "fecha_nacimiento";
    static final String MISSING = "Escribe tu fecha de nacimiento";
    static final String NOT_A_DATE = "Esa fecha no existe: escríbela como AAAA-MM-DD";
    static final String FUTURE = "La fecha de nacimiento no puede ser posterior a hoy";
    static final String TOO_OLD = "Esa fecha de nacimiento no es posible: escríbela como AAAA-MM-DD";

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final MinorSettings settings;

    BirthDates(JdbcTemplate jdbc, Clock clock, MinorSettings settings) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.settings = settings;
    }

    /** Today in {@link #ZONE} on the service's clock. */
    public LocalDate today() {
        return LocalDate.now(clock.withZone(ZONE));
    }

    /**
     * The birth date typed ({@code YYYY-MM-DD}, what a date field sends), checked: a real day of the calendar, not
     * after today, not before 1900.
     *
     * @throws RefusedField with field {@value #FIELD} and the reason the form shows
     */
    public LocalDate parse(@Nullable String typed) {
        String text = typed == null ? "" : typed.strip();
        if (text.isEmpty()) {
            throw new RefusedField(FIELD, MISSING);
        }
        LocalDate date;
        try {
            if (!text.matches("\\d{4}-\\d{2}-\\d{2}")) {
                throw new RefusedField(FIELD, NOT_A_DATE);
            }
            date = LocalDate.parse(text); // ISO_LOCAL_DATE resolves strictly: 2013-02-30 is no date
        }
        catch (DateTimeParseException e) {
            throw new RefusedField(FIELD, NOT_A_DATE);
        }
        if (date.isAfter(today())) {
            throw new RefusedField(FIELD, FUTURE);
        }
        if (date.isBefore(EARLIEST)) {
            throw new RefusedField(FIELD, TOO_OLD);
        }
        return date;
    }

    /** Whole years from {@code birth} to today: 14 on the day of the fourteenth birthday. */
    public int yearsOld(LocalDate birth) {
        return Period.between(birth, today()).getYears();
    }

    /** Whether a person born on {@code birth} needs a parent's consent ({@code identity.minors.consent-age}). */
    public boolean needsConsent(@Nullable LocalDate birth) {
        return birth != null && yearsOld(birth) < settings.consentAge();
    }

    /** Whether a person born on {@code birth} is under 18 ({@code menor}); no date is an adult. */
    public boolean isMinor(@Nullable LocalDate birth) {
        return birth != null && yearsOld(birth) < ADULT_AGE;
    }

    /** {@code identity.minors.consent-age}. */
    public int consentAge() {
        return settings.consentAge();
    }

    /** A {@code date} column as JDBC gave it ({@code java.sql.Date}, or a {@code LocalDate}), or null. */
    public static @Nullable LocalDate dateOf(@Nullable Object column) {
        if (column instanceof Date date) {
            return date.toLocalDate();
        }
        return column instanceof LocalDate local ? local : null;
    }

    /** Keeps the birth date of a new account, in the caller's transaction. */
    public void record(long userId, LocalDate birth) {
        jdbc.update("insert into birth_dates (user_id, fecha_nacimiento) values (?, ?)", userId, Date.valueOf(birth));
    }

    /**
     * An admin gives the account {@code userId} a birth date (D50), in the caller's transaction: the first one, or in
     * place of the one it had.
     */
    void set(long userId, LocalDate birth) {
        if (jdbc.update("update birth_dates set fecha_nacimiento = ? where user_id = ?", Date.valueOf(birth), userId) == 0) {
            record(userId, birth);
        }
    }

    /** The account's birth date, or empty (an adult whose date was never asked). */
    public Optional<LocalDate> of(long userId) {
        List<LocalDate> found = jdbc.query("select fecha_nacimiento from birth_dates where user_id = ?",
                (rows, n) -> rows.getObject(1, LocalDate.class), userId);
        return found.stream().findFirst();
    }
}
