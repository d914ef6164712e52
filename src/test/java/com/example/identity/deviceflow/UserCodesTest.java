package com.example.identity.deviceflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** User codes of the device flow: 8 consonants, shown XXXX-XXXX, read back however the user types them. */
class UserCodesTest {

    @Test
    void aNewCodeIsEightLettersOfTheAlphabetWithoutVowels() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            String code = UserCodes.generate();
            assertThat(code).hasSize(8).matches("[BCDFGHJKLMNPQRSTVWXZ]{8}");
            seen.add(code);
        }
        assertThat(seen).as("random, not repeating").hasSizeGreaterThan(495);
    }

    @Test
    void theAlphabetHasNoVowelsNorLookAlikes() {
        assertThat(UserCodes.ALPHABET).hasSize(20).doesNotContain("A", "E", "I", "O", "U", "Y", "0", "1");
    }

    @Test
    void aCodeIsShownInTwoHalvesWithADash() {
        assertThat(UserCodes.display("BCDFGHJK")).isEqualTo("BCDF-GHJK");
    }

    @Test
    void whatIsShownIsReadBack() {
        String code = UserCodes.generate();
        assertThat(UserCodes.normalize(UserCodes.display(code))).hasValue(code);
    }

    @Test
    void typedCodesAreReadInAnyCaseWithDashesAndSpacesIgnored() {
        for (String typed : new String[] { "BCDF-GHJK", "bcdf-ghjk", "bcdfghjk", " BCDF GHJK ", "BC-DF-GH-JK",
                "BCDF\u2010GHJK", "BCDF\u2013GHJK" }) {
            assertThat(UserCodes.normalize(typed)).as(typed).hasValue("BCDFGHJK");
        }
    }

    @Test
    void whatCannotBeACodeIsRefusedWithoutALookup() {
        for (String typed : new String[] { "", "BCDF-GHJ", "BCDF-GHJKL", "BCDF-GHJA", "BCDF-GHJ0", "BCDF_GHJK",
                "BCDF.GHJK", "BCDF-GHJ\u00d1", "-".repeat(33) }) {
            assertThat(UserCodes.normalize(typed)).as(typed).isEmpty();
        }
        assertThat(UserCodes.normalize(null)).isEmpty();
    }

    @Test
    void paddingIsAcceptedUpToThirtyTwoCharactersTyped() {
        String padded = "  BCDF-GHJK" + " ".repeat(21);
        assertThat(padded).hasSize(32);
        assertThat(UserCodes.normalize(padded)).hasValue("BCDFGHJK");
        assertThat(UserCodes.normalize(padded + " ")).isEmpty();
    }
}
