package com.example.identity.webhooks;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@code webhook_url} may be: an absolute {@code https://} URL of at most 2000 characters, without user
 * information nor fragment, to a host that is not a loopback, private, link-local or unspecified IP literal (the
 * service must not be made to POST into its own network). With {@code identity.webhooks.allow-http} (tests, local
 * development) {@code http://localhost}, {@code 127.0.0.1} and {@code [::1]} are accepted too. Host names are not
 * resolved here: deliveries never follow redirects, and docs/webhooks.md says what a deployment adds (an egress
 * proxy) against names that resolve inside.
 */
final class WebhookUrlRule {

    static final int MAX = 2000;
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");

    private WebhookUrlRule() {
    }

    /** The Spanish reason {@code value} is refused, in the API's words; empty when it is accepted. */
    static Optional<String> problemWith(String value, boolean allowHttp) {
        if (value.length() > MAX) {
            return Optional.of("webhook_url demasiado largo");
        }
        URI uri;
        try {
            uri = new URI(value);
        }
        catch (URISyntaxException e) {
            return Optional.of("webhook_url inválido: no es una URI válida");
        }
        if (!value.equals(value.strip()) || !uri.isAbsolute() || uri.isOpaque() || uri.getHost() == null) {
            return Optional.of("webhook_url inválido: debe ser una URL absoluta");
        }
        if (uri.getRawFragment() != null || value.contains("#") || uri.getRawUserInfo() != null) {
            return Optional.of("webhook_url inválido: no puede llevar fragmento (#) ni usuario");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (allowHttp && LOOPBACK.contains(host) && (scheme.equals("http") || scheme.equals("https"))) {
            return Optional.empty();
        }
        if (!scheme.equals("https")) {
            return Optional.of("webhook_url inválido: usa https");
        }
        if (host.equals("localhost") || host.endsWith(".localhost") || isInternalLiteral(host)) {
            return Optional.of("webhook_url inválido: no puede apuntar a una dirección local o privada");
        }
        return Optional.empty();
    }

    /**
     * Whether {@code host} is an IP literal of this machine or of a private network. A host whose last label starts
     * with a digit or {@code 0x} (no top-level domain does) must be a dotted IPv4 address: the shorter and hexadecimal
     * forms that resolvers also read as addresses ({@code 127.1}, {@code 0x7f000001}) count as internal.
     */
    private static boolean isInternalLiteral(String host) {
        boolean v6 = host.startsWith("[") && host.endsWith("]");
        String last = host.substring(host.lastIndexOf('.') + 1);
        if (!v6 && !last.matches("(0x|[0-9]).*")) {
            return false; // a name: not resolved here
        }
        if (!v6 && !host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
            return true;
        }
        try {
            // a literal: no lookup happens
            InetAddress address = InetAddress.getByName(v6 ? host.substring(1, host.length() - 1) : host);
            byte[] b = address.getAddress();
            boolean uniqueLocalV6 = b.length == 16 && (b[0] & 0xfe) == 0xfc;
            return address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                    || address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocalV6
                    || (b.length == 4 && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64) // 100.64.0.0/10
                    || (b.length == 16 && address instanceof java.net.Inet6Address && isMappedOrCompatible(b));
        }
        catch (java.net.UnknownHostException e) {
            return true; // not a usable literal
        }
    }

    /** ::ffff:a.b.c.d and ::a.b.c.d hide an IPv4 address: refused rather than read. */
    private static boolean isMappedOrCompatible(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
