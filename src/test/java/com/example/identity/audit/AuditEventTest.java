package com.example.identity.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** What a login form's e-mail field may put in the trail as the actor, and the labels the admin page shows. */
class AuditEventTest {

    @Test
    void aPlausibleAddressIsTheActorTrimmedAndInLowerCase() {
        assertThat(AuditEvent.attemptedAccount("  Ana.Garcia+juego@Example.COM ")).isEqualTo("ana.garcia+juego@example.com");
        assertThat(AuditEvent.attemptedAccount("o'brien@sub.dominio-uno.es")).isEqualTo("o'brien@sub.dominio-uno.es");
    }

    @Test
    void theFirstAdminsLocalhostAddressIsPlausible() {
        assertThat(AuditEvent.attemptedAccount("admin@localhost")).isEqualTo("admin@localhost");
    }

    @Test
    void textThatIsNotAnAddressNeverReachesTheTrail() {
        for (String typed : new String[] { "contraseña secreta", "Secreta@123", "p@ss", "ana@", "@example.com",
                "ana@example", "ana@example.c0m", "ana@-example.com", "ana@example..com", "ana garcia@example.com",
                "ana@exam_ple.com", "" }) {
            assertThat(AuditEvent.attemptedAccount(typed)).as(typed).isEqualTo(AuditEvent.NOT_AN_EMAIL);
        }
        assertThat(AuditEvent.attemptedAccount(null)).isEqualTo(AuditEvent.NOT_AN_EMAIL);
    }

    @Test
    void anAddressLongerThan254CharactersOrWithALocalPartOver64IsNotOne() {
        String longHost = "a".repeat(60) + "." + "b".repeat(60) + "." + "c".repeat(60) + "." + "d".repeat(60) + "."
                + "e".repeat(60) + ".com";
        assertThat(("x@" + longHost).length()).isGreaterThan(254);
        assertThat(AuditEvent.attemptedAccount("x@" + longHost)).isEqualTo(AuditEvent.NOT_AN_EMAIL);
        assertThat(AuditEvent.attemptedAccount("a".repeat(64) + "@example.com")).isEqualTo("a".repeat(64) + "@example.com");
        assertThat(AuditEvent.attemptedAccount("a".repeat(65) + "@example.com")).isEqualTo(AuditEvent.NOT_AN_EMAIL);
    }

    @Test
    void theTwoArgumentEventTakesItsActorFromTheRequestLater() {
        assertThat(new AuditEvent(AuditEvent.Type.TOKEN_CREATED, "token 7").actor()).isNull();
    }

    @Test
    void everyTypeHasItsOwnNonBlankLabelThatFitsTheColumn() {
        AuditEvent.Type[] types = AuditEvent.Type.values();
        assertThat(types).allSatisfy(type -> assertThat(type.label()).as(type.name()).isNotBlank());
        assertThat(Arrays.stream(types).map(AuditEvent.Type::label).distinct().count()).isEqualTo(types.length);
        // AuditRecord stores the type's name in a column of 40 characters
        assertThat(types).allSatisfy(type -> assertThat(type.name().length()).as(type.name()).isLessThanOrEqualTo(40));
        assertThat(AuditEvent.Type.LOGIN_FAILED.label()).isEqualTo("Inicio de sesión fallido");
    }
}
