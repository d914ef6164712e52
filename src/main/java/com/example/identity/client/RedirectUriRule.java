package com.example.identity.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What a registered {@code redirect_uri} may be (decisions §6): one absolute URI without fragment or
 * user info; {@code https}, or {@code http} only for the loopback hosts of RFC 8252. It is later matched
 * exactly, byte for byte.
 */
public final class RedirectUriRule {

    public static final int MAX_LENGTH = 2000;
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");

    private RedirectUriRule() {
    }

    /** The Spanish reason why {@code value} is refused, or empty when it is acceptable. */
    public static Optional<String> problemWith(String value) {
        if (value == null || value.isBlank()) {
            return Optional.of("Falta el parámetro redirect_uri");
        }
        if (value.length() > MAX_LENGTH) {
            return Optional.of("redirect_uri demasiado largo");
        }
        URI uri;
        try {
            uri = new URI(value);
        }
        catch (URISyntaxException e) {
            return Optional.of("redirect_uri inválido: no es una URI válida");
        }
        if (!value.equals(value.strip()) || !uri.isAbsolute() || uri.getRawAuthority() == null || uri.getHost() == null) {
            return Optional.of("redirect_uri inválido: debe ser una URI absoluta");
        }
        if (uri.getRawFragment() != null || value.contains("#")) {
            return Optional.of("redirect_uri inválido: no puede llevar fragmento (#)");
        }
        if (uri.getRawUserInfo() != null) {
            return Optional.of("redirect_uri inválido: no puede llevar usuario ni contraseña");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (scheme.equals("https") || (scheme.equals("http") && LOOPBACK.contains(host))) {
            return Optional.empty();
        }
        return Optional.of("redirect_uri inválido: usa https (http solo para localhost, 127.0.0.1 o [::1])");
    }
}
