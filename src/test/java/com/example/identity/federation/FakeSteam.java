package com.example.identity.federation;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.test.context.DynamicPropertyRegistry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A Steam-like OpenID Authentication 2.0 provider (OP) inside the test, written from the specification's text
 * (openid4java, the library the brief named, is not served by the registry this project uses): a JDK
 * {@code HttpServer} on 127.0.0.1 whose endpoint {@code /openid/login}
 * <ul>
 * <li>answers a {@code checkid_setup} request (§9) with identifier select by redirecting to its {@code return_to}
 *     with a positive assertion (§10.1) for the SteamID {@link #nextSteamId}: {@code claimed_id} and
 *     {@code identity} {@code {base}/openid/id/<SteamID64>}, a {@code response_nonce} with the time, the fields
 *     Steam signs, signed HMAC-SHA256 (§6.2) over their key-value form (§4.1.1) with a private association's key
 *     (stateless mode: the relying party has no association);</li>
 * <li>answers a direct {@code check_authentication} (§11.4.2) by verifying that signature with the private key
 *     of the {@code assoc_handle}, in key-value form {@code ns:…\nis_valid:true|false\n}. Like Steam, it does not
 *     invalidate the handle after a check: refusing a replayed answer is the relying party's job (§11.3).</li>
 * </ul>
 */
final class FakeSteam implements AutoCloseable {

    static final String NS = "http://specs.openid.net/auth/2.0";
    static final String SIGNED = "signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle";

    final HttpServer server;
    final String base;
    final String endpoint;
    private final Map<String, byte[]> privateAssociations = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    /** The SteamID64 the next assertion is for. */
    volatile String nextSteamId = "76561197960287930";
    /** When set, the {@code op_endpoint} the next assertions name (and sign) instead of this endpoint. */
    volatile String claimedEndpoint;
    /** When set, the {@code response_nonce} of every assertion (an OP that repeats nonces). */
    volatile String fixedNonce;
    /** Requests {@code check_authentication} received. */
    volatile int checks;

    FakeSteam() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        endpoint = base + "/openid/login";
        server.createContext("/openid/login", this::handle);
        server.start();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** The service under test at {@code port} (its issuer {@code http://localhost:port}), with Steam's login here. */
    void register(DynamicPropertyRegistry registry, int port) {
        registry.add("server.port", () -> port);
        registry.add("identity.issuer", () -> "http://localhost:" + port);
        registry.add("identity.steam.enabled", () -> "true");
        registry.add("identity.steam.endpoint", () -> endpoint);
    }

    String claimedId(String steamId) {
        return base + "/openid/id/" + steamId;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if ("GET".equals(exchange.getRequestMethod())) {
                Map<String, String> request = parse(exchange.getRequestURI().getRawQuery());
                if (!"checkid_setup".equals(request.get("openid.mode")) || !NS.equals(request.get("openid.ns"))
                        || !(NS + "/identifier_select").equals(request.get("openid.claimed_id"))
                        || !(NS + "/identifier_select").equals(request.get("openid.identity"))
                        || request.get("openid.return_to") == null || request.get("openid.realm") == null
                        || !request.get("openid.return_to").startsWith(request.get("openid.realm"))) {
                    answer(exchange, 400, "error:bad request\n");
                    return;
                }
                String location = assertion(request.get("openid.return_to"));
                exchange.getResponseHeaders().add("Location", location);
                exchange.sendResponseHeaders(302, -1);
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            Map<String, String> check = parse(new String(body, StandardCharsets.UTF_8));
            if (!"check_authentication".equals(check.get("openid.mode"))) {
                answer(exchange, 400, "ns:" + NS + "\nerror:unsupported mode\n");
                return;
            }
            checks++;
            byte[] key = privateAssociations.get(check.getOrDefault("openid.assoc_handle", ""));
            boolean valid = key != null && check.get("openid.sig") != null && check.get("openid.signed") != null
                    && MessageDigest.isEqual(Base64.getDecoder().decode(check.get("openid.sig")),
                            sign(key, check, check.get("openid.signed"), "id_res"));
            answer(exchange, 200, "ns:" + NS + "\nis_valid:" + valid + "\n");
        }
        catch (RuntimeException e) {
            answer(exchange, 400, "error:" + e.getClass().getSimpleName() + "\n");
        }
    }

    /** The positive assertion (§10.1): the return_to with the signed fields added to its query. */
    private String assertion(String returnTo) {
        String handle = "private-" + Long.toHexString(random.nextLong());
        byte[] key = new byte[32];
        random.nextBytes(key);
        privateAssociations.put(handle, key);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("openid.ns", NS);
        fields.put("openid.mode", "id_res");
        fields.put("openid.op_endpoint", claimedEndpoint == null ? endpoint : claimedEndpoint);
        fields.put("openid.claimed_id", claimedId(nextSteamId));
        fields.put("openid.identity", claimedId(nextSteamId));
        fields.put("openid.return_to", returnTo);
        fields.put("openid.response_nonce", fixedNonce != null ? fixedNonce
                : Instant.now().truncatedTo(ChronoUnit.SECONDS) + Long.toHexString(random.nextLong()));
        fields.put("openid.assoc_handle", handle);
        fields.put("openid.signed", SIGNED);
        fields.put("openid.sig", Base64.getEncoder().encodeToString(sign(key, fields, SIGNED, null)));
        return returnTo + (returnTo.contains("?") ? "&" : "?") + encode(fields);
    }

    /**
     * §6.1: the key-value form of the signed fields, in the order of {@code openid.signed}, each {@code key:value\n};
     * in a check_authentication the mode is taken as the assertion's, {@code id_res} (§11.4.2.1).
     */
    static byte[] sign(byte[] key, Map<String, String> fields, String signed, String mode) {
        StringBuilder text = new StringBuilder();
        for (String name : signed.split(",")) {
            String value = "mode".equals(name) && mode != null ? mode : fields.get("openid." + name);
            if (value == null) {
                return new byte[0];
            }
            text.append(name).append(':').append(value).append('\n');
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(text.toString().getBytes(StandardCharsets.UTF_8));
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void answer(HttpExchange exchange, int status, String keyValues) throws IOException {
        byte[] bytes = keyValues.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/plain; charset=UTF-8");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    static Map<String, String> parse(String query) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return fields;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            fields.putIfAbsent(name, value);
        }
        return fields;
    }

    static String encode(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    /** A URL with one query parameter replaced (a tampered answer). */
    static String replace(String url, String name, String value) {
        URI uri = URI.create(url);
        Map<String, String> fields = parse(uri.getRawQuery());
        fields.put(name, value);
        return uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath() + "?" + encode(fields);
    }
}
