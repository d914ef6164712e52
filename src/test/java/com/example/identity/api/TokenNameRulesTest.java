package com.example.identity.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The name of a new token, checked before the database is asked. */
class TokenNameRulesTest {

    @Test
    void nameIsRequiredAfterTrimming() {
        assertThat(TokenCreateController.problemWithName(null)).isEqualTo("Falta el parámetro name");
        assertThat(TokenCreateController.problemWithName(new String[0])).isEqualTo("Falta el parámetro name");
        assertThat(TokenCreateController.problemWithName(new String[] { " \t " })).isEqualTo("Falta el parámetro name");
    }

    @Test
    void nameMayHaveOneHundredCharactersAfterTrimmingNotMore() {
        assertThat(TokenCreateController.problemWithName(new String[] { "  " + "a".repeat(100) + "  " })).isNull();
        assertThat(TokenCreateController.problemWithName(new String[] { "a".repeat(101) })).isEqualTo("name demasiado largo");
    }

    @Test
    void aNameOfOneVisibleCharacterIsEnough() {
        assertThat(TokenCreateController.problemWithName(new String[] { "x" })).isNull();
        assertThat(TokenCreateController.problemWithName(new String[] { "mi juego ñ" })).isNull();
    }
}
