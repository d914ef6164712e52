package com.example.identity.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class SecretsTest {

    @Test
    void randomHexGivesTwoLowercaseHexCharactersPerByte() {
        for (int bytes : new int[] { 1, 16, 32 }) {
            assertThat(Secrets.randomHex(bytes)).hasSize(bytes * 2).matches("[0-9a-f]+");
        }
    }

    @Test
    void randomHexDoesNotRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            assertThat(seen.add(Secrets.randomHex(32))).isTrue();
        }
    }

    @Test
    void sha256HexMatchesKnownVectors() {
        // the empty string, and "abc" from FIPS 180-2
        assertThat(Secrets.sha256Hex("")).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(Secrets.sha256Hex("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void sha256HexHashesTheUtf8Bytes() {
        // "ñ" is C3 B1 in UTF-8 (F1 in ISO-8859-1 would give d4f09e5c...)
        assertThat(Secrets.sha256Hex("\u00f1")).isEqualTo("024bb90888ca89a15a19e9bdd8c712bfb070465fce1ef25e43c170ea44fc5e5f");
    }

    @Test
    void digestMatchesOnlyTheValueThatWasHashed() {
        String value = Secrets.randomHex(32);
        String digest = Secrets.sha256Hex(value);
        assertThat(Secrets.digestMatches(digest, value)).isTrue();
        assertThat(Secrets.digestMatches(digest, value.substring(1) + "0")).isFalse();
        assertThat(Secrets.digestMatches(digest, value.toUpperCase())).isFalse();
        assertThat(Secrets.digestMatches(digest, "")).isFalse();
        assertThat(Secrets.digestMatches(digest, null)).isFalse();
        assertThat(Secrets.digestMatches(null, value)).isFalse();
        assertThat(Secrets.digestMatches(digest.substring(2), value)).isFalse();
    }
}
