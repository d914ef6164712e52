package com.example.identity.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one rule for token and application names. */
class NamesTest {

    @Test
    void missingBeforeTooLongBeforeInvalid() {
        assertThat(Names.problemWith(null)).contains(Names.Problem.MISSING);
        assertThat(Names.problemWith(" \t\u3000 ")).contains(Names.Problem.MISSING);
        assertThat(Names.problemWith("\u0000".repeat(101))).contains(Names.Problem.TOO_LONG);
        assertThat(Names.problemWith("a\u0000b")).contains(Names.Problem.INVALID);
    }

    @Test
    void oneHundredCharactersAfterTrimmingAreEnough() {
        assertThat(Names.problemWith("  " + "a".repeat(100) + "\t")).isEmpty();
        assertThat(Names.clean("  " + "a".repeat(100) + "\t")).isEqualTo("a".repeat(100));
        assertThat(Names.problemWith("a".repeat(101))).contains(Names.Problem.TOO_LONG);
    }

    @ParameterizedTest
    @ValueSource(strings = { "a\u0000b", "a\u0001b", "a\nb", "a\rb", "a\tb", "a\u001bb", "a\u007fb", "a\u0085b", "a\u009fb",
            "a\u2028b", "a\u2029b", "a\u202eb", "a\u202ab", "a\u2066b", "a\u2069b", "a\u200fb", "a\ud800b", "a\udc00b" })
    void controlCharactersAndReorderingMarksAreRefused(String name) {
        assertThat(Names.problemWith(name)).contains(Names.Problem.INVALID);
        assertThatThrownBy(() -> Names.clean(name)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "x", "Mi juego (producción)", "ñandú", "日本語のゲーム", "😀 juego", "👩‍💻 equipo", "a'b\"c<d>&e",
            "%00", "\\u0000" })
    void everyOtherTextIsAName(String name) {
        assertThat(Names.problemWith(name)).isEmpty();
        assertThat(Names.clean(name)).isEqualTo(name);
    }
}
