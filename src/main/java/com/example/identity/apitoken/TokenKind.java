package com.example.identity.apitoken;

import jakarta.persistence.Converter;

import com.example.identity.common.ValueConverter;

/**
 * A token made by its owner ({@code personal}), issued to an OAuth client for a user ({@code oauth}), or issued
 * to a {@code servidor} application for itself by the client credentials grant ({@code servidor}, decisions
 * §21: its row names the application's owner, but it speaks for no user).
 */
public enum TokenKind {
    PERSONAL("personal"),
    OAUTH("oauth"),
    SERVER("servidor");

    private final String value;

    TokenKind(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    static TokenKind fromValue(String value) {
        for (TokenKind kind : values()) {
            if (kind.value.equals(value)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown token kind: " + value);
    }

    @Converter(autoApply = true)
    static class JpaConverter extends ValueConverter<TokenKind> {
        JpaConverter() {
            super(TokenKind::value, TokenKind::fromValue);
        }
    }
}
