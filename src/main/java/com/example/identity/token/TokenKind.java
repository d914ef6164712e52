package com.example.identity.token;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** A token made by its owner ({@code personal}) or issued to an OAuth client ({@code oauth}). */
public enum TokenKind {
    PERSONAL("personal"),
    OAUTH("oauth");

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
    static class JpaConverter implements AttributeConverter<TokenKind, String> {
        @Override
        public String convertToDatabaseColumn(TokenKind kind) {
            return kind == null ? null : kind.value;
        }

        @Override
        public TokenKind convertToEntityAttribute(String value) {
            return value == null ? null : fromValue(value);
        }
    }
}
