package com.example.identity.sanctions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import com.example.identity.account.Caller;

/** The rules of one sanction and of who places it (decisions §26), without a database. */
class SanctionRulesTest {

    static final Instant NOW = Instant.parse("2026-05-05T10:00:00Z");

    static Sanction sanction(Instant hasta, String clientId, Instant liftedAt) {
        return new Sanction(1, 5, "Trampas", hasta, clientId, 7, null, NOW.minusSeconds(60), liftedAt);
    }

    @Test
    void aSanctionIsInForceUntilItsHastaOrItsLiftAndAPermanentOneUntilItsLift() {
        Sanction week = sanction(NOW.plus(Duration.ofDays(7)), "juego", null);
        assertThat(week.inForceAt(NOW)).isTrue();
        assertThat(week.inForceAt(NOW.plus(Duration.ofDays(7)).minusMillis(1))).isTrue();
        assertThat(week.inForceAt(NOW.plus(Duration.ofDays(7)))).as("it ends at hasta").isFalse();
        assertThat(sanction(null, null, null).inForceAt(NOW.plus(Duration.ofDays(36500)))).isTrue();
        assertThat(sanction(null, null, NOW).inForceAt(NOW)).as("lifted").isFalse();
    }

    @Test
    void aGlobalSanctionAppliesToEveryApplicationAnotherToItsOwn() {
        assertThat(sanction(null, null, null).appliesTo("juego")).isTrue();
        assertThat(sanction(null, null, null).appliesTo(null)).isTrue();
        assertThat(sanction(null, "juego", null).appliesTo("juego")).isTrue();
        assertThat(sanction(null, "juego", null).appliesTo("tienda")).isFalse();
        assertThat(sanction(null, "juego", null).appliesTo(null)).isFalse();
    }

    @Test
    void ofTwoSanctionsThePermanentOrTheLaterLastsLonger() {
        Sanction week = sanction(NOW.plus(Duration.ofDays(7)), null, null);
        Sanction month = sanction(NOW.plus(Duration.ofDays(30)), null, null);
        Sanction forever = sanction(null, null, null);
        assertThat(Sanction.longer(week, month)).isSameAs(month);
        assertThat(Sanction.longer(month, week)).isSameAs(month);
        assertThat(Sanction.longer(month, forever)).isSameAs(forever);
        assertThat(Sanction.longer(forever, week)).isSameAs(forever);
    }

    @Test
    void anAdminActsEverywhereAnOwnerInTheirApplicationsAServerNeverEverywhere() {
        Sanctioner admin = Sanctioner.of(new Caller(1, true));
        Sanctioner owner = Sanctioner.of(new Caller(7, false));
        Sanctioner adminsServer = Sanctioner.server(1, "srv");
        assertThat(admin.mayActEverywhere()).isTrue();
        assertThat(admin.mayActIn(7)).isTrue();
        assertThat(owner.mayActEverywhere()).isFalse();
        assertThat(owner.mayActIn(7)).isTrue();
        assertThat(owner.mayActIn(8)).isFalse();
        assertThat(adminsServer.mayActEverywhere()).as("a program suspends nobody from everything").isFalse();
        assertThat(adminsServer.mayActIn(1)).isTrue();
        assertThat(adminsServer.mayActIn(7)).isFalse();
        assertThat(adminsServer.actor()).isEqualTo("srv");
        assertThat(owner.actor()).isNull();
    }

    @Test
    void theReasonIsTrimmedOneTo200CharactersWithoutControlCharacters() {
        assertThat(SanctionService.motivo("  Trampas ")).isEqualTo("Trampas");
        assertThat(SanctionService.motivo("😀".repeat(200))).hasSize(400);
        assertRefused(null, SanctionRefused.Reason.MOTIVO_MISSING);
        assertRefused(" \t", SanctionRefused.Reason.MOTIVO_MISSING);
        assertRefused("m".repeat(201), SanctionRefused.Reason.MOTIVO_TOO_LONG);
        assertRefused("una\nlínea", SanctionRefused.Reason.MOTIVO_INVALID);
        assertRefused("a\u0000b", SanctionRefused.Reason.MOTIVO_INVALID);
    }

    static void assertRefused(String motivo, SanctionRefused.Reason reason) {
        assertThatThrownBy(() -> SanctionService.motivo(motivo)).isInstanceOf(SanctionRefused.class)
                .hasMessage(reason.message());
    }

    @Test
    void thePersonIsShownTheEndToTheMinuteInUtcOrNoneAndWhetherItIsOneApplication() {
        assertThat(SuspensionNotice.of(sanction(Instant.parse("2027-01-31T12:00:59Z"), null, null)))
                .isEqualTo(new SuspensionNotice("Trampas", "2027-01-31 12:00 UTC", false));
        assertThat(SuspensionNotice.of(sanction(null, "juego", null)))
                .isEqualTo(new SuspensionNotice("Trampas", null, true));
    }
}
