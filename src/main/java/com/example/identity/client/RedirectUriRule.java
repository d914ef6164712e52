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

    /** {@code value} as a URI, or the reason it is not one: what both kinds of redirect URI check first. */
    private record Parsed(URI uri, String problem) {
    }

    private static Parsed parse(String value) {
        if (value == null || value.isBlank()) {
            return new Parsed(null, "Falta el parámetro redirect_uri");
        }
        if (value.length() > MAX_LENGTH) {
            return new Parsed(null, "redirect_uri demasiado largo");
        }
        try {
            return new Parsed(new URI(value), null);
        }
        catch (URISyntaxException e) {
            return new Parsed(null, "redirect_uri inválido: no es una URI válida");
        }
    }

    /** The Spanish reason why {@code value} is refused, or empty when it is acceptable. */
    public static Optional<String> problemWith(String value) {
        Parsed parsed = parse(value);
        if (parsed.problem() != null) {
            return Optional.of(parsed.problem());
        }
        URI uri = parsed.uri();
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

    /** The loopback IP literals a native application may listen on (RFC 8252 §7.3; never {@code localhost}). */
    private static final Set<String> LOOPBACK_LITERALS = Set.of("127.0.0.1", "[::1]");
    /** A private-use scheme in reverse-domain form (RFC 8252 §7.1): it contains a dot. */
    private static final java.util.regex.Pattern PRIVATE_USE_SCHEME = java.util.regex.Pattern.compile(
            "[a-z][a-z0-9+-]*(\\.[a-z0-9+-]+)+");

    /**
     * The Spanish reason why {@code value} is refused as a native application's redirect URI (decisions
     * §16), or empty: {@code http://127.0.0.1/<path>} or {@code http://[::1]/<path>}, with or without a
     * port (any port is accepted at request time), or a private-use scheme in reverse-domain form followed by
     * one slash and the path, such as {@code com.example.juego:/callback} (never the opaque
     * {@code com.example.juego:callback}); never a fragment or user info.
     */
    public static Optional<String> nativeProblemWith(String value) {
        Parsed parsed = parse(value);
        if (parsed.problem() != null) {
            return Optional.of(parsed.problem());
        }
        URI uri = parsed.uri();
        if (!value.equals(value.strip()) || !uri.isAbsolute() || uri.getRawFragment() != null || value.contains("#")
                || uri.getRawUserInfo() != null) {
            return Optional.of("redirect_uri inválido: debe ser una URI absoluta sin fragmento ni usuario");
        }
        String scheme = uri.getScheme();
        if (scheme.equals("http")) {
            return uri.getHost() != null && LOOPBACK_LITERALS.contains(uri.getHost()) ? Optional.empty()
                    : Optional.of("redirect_uri inválido: una aplicación nativa usa http://127.0.0.1 o http://[::1] "
                            + "(RFC 8252 §7.3), o un esquema propio como com.example.juego:/callback");
        }
        if (PRIVATE_USE_SCHEME.matcher(scheme).matches()) {
            // RFC 8252 §7.1: "com.example.app:/oauth2redirect/example-provider", one slash and the path; not
            // the opaque "com.example.app:callback" nor an authority ("com.example.app://callback")
            String rest = value.substring(scheme.length() + 1);
            if (uri.isOpaque() || uri.getRawAuthority() != null || !rest.startsWith("/") || rest.startsWith("//")) {
                return Optional.of("redirect_uri inválido: tras un esquema propio va una sola barra y la ruta, "
                        + "como com.example.juego:/callback (RFC 8252 §7.1)");
            }
            return Optional.empty();
        }
        return Optional.of("redirect_uri inválido: una aplicación nativa usa http://127.0.0.1 o http://[::1] "
                + "(RFC 8252 §7.3), o un esquema propio como com.example.juego:/callback");
    }

    /**
     * Whether {@code requested} is a redirect URI of the application: byte for byte one of
     * {@code registered}; for a native application, also a loopback one that differs only in its port (RFC
     * 8252 §7.3: the app listens on whatever port the system gives it).
     */
    public static boolean matches(java.util.Collection<String> registered, String requested, boolean nativeClient) {
        if (requested == null) {
            return false;
        }
        if (registered.contains(requested)) {
            return true;
        }
        if (!nativeClient || !requested.startsWith("http://")) {
            return false;
        }
        URI asked;
        try {
            asked = new URI(requested);
        }
        catch (URISyntaxException e) {
            return false;
        }
        if (asked.getHost() == null || !LOOPBACK_LITERALS.contains(asked.getHost()) || asked.getRawUserInfo() != null
                || asked.getRawFragment() != null) {
            return false;
        }
        for (String uri : registered) {
            try {
                URI known = new URI(uri);
                if ("http".equals(known.getScheme()) && asked.getHost().equals(known.getHost())
                        && java.util.Objects.equals(asked.getRawPath(), known.getRawPath())
                        && java.util.Objects.equals(asked.getRawQuery(), known.getRawQuery())) {
                    return true;
                }
            }
            catch (URISyntaxException e) {
                // a registered URI was checked when it was registered
            }
        }
        return false;
    }
}
