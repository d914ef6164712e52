package com.example.identity.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class LocalRedirectTest {

    @ParameterizedTest
    @ValueSource(strings = { "/", "/dashboard/developer.php", "/oauth/authorize.php?client_id=a&redirect_uri=https%3A%2F%2Fx",
            "/a/b//c" })
    void localPathsAreAccepted(String value) {
        assertThat(LocalRedirect.isLocalPath(value)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = { "//evil.example", "///evil.example", "https://evil.example", "/\\evil.example",
            "\\/evil.example", "javascript:alert(1)", "evil.example", "/\t/evil.example", "/\n/evil.example",
            "/ /evil.example", "/\u0000x", "/x\u007f" })
    void anythingElseIsRefused(String value) {
        assertThat(LocalRedirect.isLocalPath(value)).isFalse();
    }

    @org.junit.jupiter.api.Test
    void overlongValuesAreRefused() {
        assertThat(LocalRedirect.isLocalPath("/" + "a".repeat(LocalRedirect.MAX_LENGTH))).isFalse();
    }
}
