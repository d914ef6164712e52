package com.example.identity.minors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

/**
 * Ages on the service's clock (decisions §27): whole years in Spain's calendar day, the consent age's bands, and the
 * form's refusals of a date that is no day, is after today or before 1900.
 */
class BirthDatesTest {

    /** 2026-11-28 at 23:30 UTC: already the 29th in Madrid (UTC+1), whose day counts (D49). */
    static final Clock LATE_EVENING = Clock.fixed(Instant.parse("2026-11-28T23:30:00Z"), ZoneOffset.UTC);
    static final Clock NOON = Clock.fixed(Instant.parse("2026-11-28T12:00:00Z"), ZoneOffset.UTC);

    static BirthDates at(Clock clock) {
        return new BirthDates(null, clock, new MinorSettings(14));
    }

    @Test
    void ageBandsTwelveFourteenSixteenThirtyAgainstTheConsentAgeAndEighteen() {
        BirthDates dates = at(NOON);
        LocalDate today = LocalDate.of(2026, 11, 28);
        assertThat(dates.today()).isEqualTo(today);
        for (int years : new int[] { 12, 14, 16, 30 }) {
            LocalDate birth = today.minusYears(years).minusMonths(3);
            assertThat(dates.yearsOld(birth)).as("%d", years).isEqualTo(years);
            assertThat(dates.needsConsent(birth)).as("%d", years).isEqualTo(years < 14);
            assertThat(dates.isMinor(birth)).as("%d", years).isEqualTo(years < 18);
        }
    }

    @Test
    void aDateThatMakesFourteenTodayCountsAsFourteenAndTheDayBeforeItThirteen() {
        BirthDates dates = at(NOON);
        LocalDate fourteenToday = LocalDate.of(2012, 11, 28);
        assertThat(dates.yearsOld(fourteenToday)).isEqualTo(14);
        assertThat(dates.needsConsent(fourteenToday)).isFalse();
        LocalDate fourteenTomorrow = LocalDate.of(2012, 11, 29);
        assertThat(dates.yearsOld(fourteenTomorrow)).isEqualTo(13);
        assertThat(dates.needsConsent(fourteenTomorrow)).isTrue();
        // at 23:30 UTC it is already the 29th in Spain: the birthday has come
        assertThat(at(LATE_EVENING).today()).isEqualTo(LocalDate.of(2026, 11, 29));
        assertThat(at(LATE_EVENING).needsConsent(fourteenTomorrow)).isFalse();
    }

    @Test
    void noBirthDateIsAnAdult() {
        assertThat(at(NOON).needsConsent(null)).isFalse();
        assertThat(at(NOON).isMinor(null)).isFalse();
    }

    @Test
    void theConsentAgeIsTheSettingsOne() {
        var sixteen = new BirthDates(null, NOON, new MinorSettings(16));
        assertThat(sixteen.consentAge()).isEqualTo(16);
        assertThat(sixteen.needsConsent(LocalDate.of(2011, 1, 1))).isTrue();
        assertThat(sixteen.needsConsent(LocalDate.of(2010, 11, 28))).isFalse();
    }

    @Test
    void theFormRefusesAMissingAnImpossibleAFutureAndAnEarlyDate() {
        BirthDates dates = at(NOON);
        assertThat(dates.parse(" 2012-02-29 ")).isEqualTo(LocalDate.of(2012, 2, 29));
        assertThat(dates.parse("2026-11-28")).isEqualTo(LocalDate.of(2026, 11, 28));
        assertRefused(dates, null, "Escribe tu fecha de nacimiento");
        assertRefused(dates, "  ", "Escribe tu fecha de nacimiento");
        assertRefused(dates, "2013-02-29", "Esa fecha no existe: escríbela como AAAA-MM-DD");
        assertRefused(dates, "2013-13-01", "Esa fecha no existe: escríbela como AAAA-MM-DD");
        assertRefused(dates, "2013-04-31", "Esa fecha no existe: escríbela como AAAA-MM-DD");
        assertRefused(dates, "28/11/2012", "Esa fecha no existe: escríbela como AAAA-MM-DD");
        assertRefused(dates, "+12012-01-01", "Esa fecha no existe: escríbela como AAAA-MM-DD");
        assertRefused(dates, "2026-11-29", "La fecha de nacimiento no puede ser posterior a hoy");
        assertRefused(dates, "1899-12-31", "Esa fecha de nacimiento no es posible: escríbela como AAAA-MM-DD");
    }

    static void assertRefused(BirthDates dates, String typed, String message) {
        assertThatThrownBy(() -> dates.parse(typed)).as(typed).isInstanceOf(RefusedField.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((RefusedField) e).field()).isEqualTo("fecha_nacimiento"));
    }
}
