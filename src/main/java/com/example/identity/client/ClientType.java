package com.example.identity.client;

import java.util.Optional;

import jakarta.persistence.Converter;

import com.example.identity.common.ValueConverter;

/**
 * What kind of program an application is (decisions §16): a web site with a server that keeps a secret
 * ({@code web}), a native app a user runs, which cannot keep one ({@code nativa}, RFC 8252: a public
 * client with PKCE), or a console or TV with no browser nor keyboard ({@code dispositivo}, RFC 8628: a public
 * client of the device authorization grant, with no redirect URI), or a game's back end that calls the service as
 * itself ({@code servidor}, decisions §21: confidential, the client credentials grant only, no redirect URI).
 */
public enum ClientType {
    WEB("web"),
    NATIVE("nativa"),
    DEVICE("dispositivo"),
    SERVER("servidor");

    private final String value;

    ClientType(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /**
     * A public client authenticates with its client id alone: a native one proves the code with PKCE, a
     * device one holds a device code that a user approved.
     */
    public boolean isPublic() {
        return this == NATIVE || this == DEVICE;
    }

    /** Whether the application logs in through a browser redirect, so it has a redirect URI. */
    public boolean hasRedirectUri() {
        return this != DEVICE && this != SERVER;
    }

    /** The type named {@code value} as the API and the dashboard spell it; empty for anything else. */
    public static Optional<ClientType> parse(String value) {
        for (ClientType type : values()) {
            if (type.value.equals(value)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    @Converter(autoApply = true)
    static class JpaConverter extends ValueConverter<ClientType> {
        JpaConverter() {
            super(ClientType::value, value -> parse(value).orElseThrow(
                    () -> new IllegalArgumentException("unknown client type: " + value)));
        }
    }
}
