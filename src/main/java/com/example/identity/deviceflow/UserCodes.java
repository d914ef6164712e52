package com.example.identity.deviceflow;

import java.security.SecureRandom;
import java.util.Locale;
import java.util.Optional;

/**
 * The user codes of the device flow (RFC 8628 §6.1, decisions §16): 8 letters from the 20 consonants
 * {@value #ALPHABET}, shown as {@code XXXX-XXXX}. No vowels, so no word can be spelt (nor an insult), and no
 * look-alikes: no {@code I}, {@code O}, {@code U} or digits to mistake for {@code 1}, {@code 0} or
 * {@code V}. 20^8 = 25,600,000,000 codes (34.6 bits). What a user types is read case-insensitively, and
 * anything but letters (the dash, spaces) is ignored.
 */
public final class UserCodes {

    static final String ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
    static final int LENGTH = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private UserCodes() {
    }

    /** A new code, as stored (digested) and compared: 8 letters, no dash. */
    static String generate() {
        char[] code = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            code[i] = ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length()));
        }
        return new String(code);
    }

    /** As a user reads it: {@code XXXX-XXXX}. */
    public static String display(String code) {
        return code.substring(0, LENGTH / 2) + "-" + code.substring(LENGTH / 2);
    }

    /**
     * What a user typed, as a code: upper case, without dashes or spaces; empty when it cannot be one (a
     * wrong length, a letter not in the alphabet), so it is refused without a lookup.
     */
    public static Optional<String> normalize(String typed) {
        if (typed == null || typed.length() > 32) {
            return Optional.empty();
        }
        StringBuilder code = new StringBuilder(LENGTH);
        for (char c : typed.toUpperCase(Locale.ROOT).toCharArray()) {
            if (c == '-' || c == ' ' || c == '\u2010' || c == '\u2013') {
                continue;
            }
            if (ALPHABET.indexOf(c) < 0 || code.length() == LENGTH) {
                return Optional.empty();
            }
            code.append(c);
        }
        return code.length() == LENGTH ? Optional.of(code.toString()) : Optional.empty();
    }
}
