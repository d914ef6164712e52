package com.example.identity.apitoken;

import java.util.Optional;

import jakarta.persistence.Converter;

import com.example.identity.common.ValueConverter;

/**
 * What a personal token may do (decisions §15): {@code perfil}, the default, only
 * {@code /api/userinfo.php}; {@code gestion} also the management routes of decisions §11, so a token
 * shipped inside a game cannot register or revoke applications.
 */
public enum TokenScope {
    PERFIL("perfil"),
    GESTION("gestion");

    /** The scope of a personal token when none is asked for. */
    public static final TokenScope DEFAULT = PERFIL;

    private final String value;

    TokenScope(String value) {
        this.value = value;
    }

    /** The value as it is written in the database, in forms and in JSON ({@code perfil}). */
    public String value() {
        return value;
    }

    /** The scope spelled exactly {@code value}, or empty. */
    public static Optional<TokenScope> fromValue(String value) {
        for (TokenScope scope : values()) {
            if (scope.value.equals(value)) {
                return Optional.of(scope);
            }
        }
        return Optional.empty();
    }

    @Converter(autoApply = true)
    static class JpaConverter extends ValueConverter<TokenScope> {
        JpaConverter() {
            super(TokenScope::value, value -> fromValue(value)
                    .orElseThrow(() -> new IllegalArgumentException("unknown token scope: " + value)));
        }
    }
}
