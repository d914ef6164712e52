package com.example.identity.apitoken;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import com.example.identity.crypto.Secrets;

/** The cheap check that runs before the database is asked: the shape of a presented token. */
class TokenInputRulesTest {

    @Test
    void freshTokensAreWellFormed() {
        for (int i = 0; i < 100; i++) {
            assertThat(ApiTokenValidator.isWellFormed(Secrets.randomHex(32))).isTrue();
        }
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde", // 63
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0", // 65
            "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef", // uppercase: tokens are lowercase
            "0123456789abcdeg0123456789abcdef0123456789abcdef0123456789abcdef", // not hex
            " 123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\u0000",
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\u00e9",
            "\uff10123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" // fullwidth digit zero
    })
    void anythingButSixtyFourLowercaseHexIsRefused(String presented) {
        assertThat(ApiTokenValidator.isWellFormed(presented)).isFalse();
    }
}
