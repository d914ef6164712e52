package com.example.identity.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PagePolicyTest {

    private static final String BEFORE = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; ";
    private static final String AFTER = "frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "https://app.example/cb?x=1|https://app.example",
            "https://App.Example:8443/a/b|https://app.example:8443",
            "http://127.0.0.1:54321/cb|http://127.0.0.1:54321",
            "http://localhost:9000/callback|http://localhost:9000",
            "com.example.juego:/callback|com.example.juego:" })
    void formActionAlsoAllowsTheAddressesOrigin(String address, String source) {
        assertThat(PagePolicy.allowingFormsTo(address)).isEqualTo(BEFORE + "form-action 'self' " + source + "; " + AFTER);
    }

    @ParameterizedTest
    @ValueSource(strings = { "http://[::1]:8400/cb", "http://[::1]/cb" })
    void anAddressNoSourceCanNameDropsFormAction(String address) {
        assertThat(PagePolicy.allowingFormsTo(address)).isEqualTo(BEFORE + AFTER).doesNotContain("form-action");
    }

    @ParameterizedTest
    @ValueSource(strings = { "not a uri", "https://exa'mple.com/", "https:///cb", "//app.example/cb", "" })
    void anythingElseKeepsThePagesPolicy(String address) {
        assertThat(PagePolicy.allowingFormsTo(address)).isEqualTo(PagePolicy.PAGES)
                .isEqualTo(BEFORE + "form-action 'self'; " + AFTER);
    }
}
