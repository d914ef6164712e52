package com.example.identity.webhooks;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

import com.example.identity.outbound.ReceiverAddresses;

/**
 * What a {@code webhook_url} may be: an absolute {@code https://} URL of at most 2000 characters, without user
 * information nor fragment, to a host a receiver may have ({@link ReceiverAddresses#refusedHost}: not this machine nor
 * a private, link-local, shared or reserved network, by address or as {@code localhost}; the service must not be made
 * to POST into its own network). With {@code identity.outbound.allow-loopback} (tests, local development)
 * {@code http://} or {@code https://} to {@code localhost}, {@code 127.0.0.1} and {@code [::1]} are accepted too. Host
 * names are not resolved here: each delivery checks the addresses the name resolves to then (outbound/ReceiverClient).
 */
final class WebhookUrlRule {

    static final int MAX = 2000;

    private WebhookUrlRule() {
    }

    /** The Spanish reason {@code value} is refused, in the API's words; empty when it is accepted. */
    static Optional<String> problemWith(String value, boolean allowLoopback) {
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
        if (allowLoopback && ReceiverAddresses.LOOPBACK_HOSTS.contains(host)
                && (scheme.equals("http") || scheme.equals("https"))) {
            return Optional.empty();
        }
        if (!scheme.equals("https")) {
            return Optional.of("webhook_url inválido: usa https");
        }
        if (ReceiverAddresses.refusedHost(host, false)) {
            return Optional.of("webhook_url inválido: no puede apuntar a una dirección local o privada");
        }
        return Optional.empty();
    }
}
