package com.example.identity.federation;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.util.UriUtils;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.common.Purge;

/**
 * Steam's login, OpenID Authentication 2.0 as a relying party (decisions §19): the request that sends the browser
 * to the configured endpoint ({@code checkid_setup}, identifier select), and the checks of the answer that comes
 * back to {@code {issuer}/login/steam/vuelta}: {@code id_res}, the namespace, {@code return_to} equal to the one
 * this service sent (with the session's state, §11.1), {@code op_endpoint} equal to the configured endpoint (§11.2),
 * the signed fields (§10.1), the claimed identifier of the endpoint's form (§11.2, {@link SteamSettings#claimedId}),
 * a fresh nonce, then the signature verified by the endpoint itself with a direct {@code check_authentication}
 * (§11.4.2: this service keeps no association), and the nonce recorded in {@code openid_nonces} so that the same
 * answer is refused at any instance the second time (§11.3).
 */
@Component
class SteamAssertions implements Purge {

    static final String NS = "http://specs.openid.net/auth/2.0";
    static final String IDENTIFIER_SELECT = NS + "/identifier_select";
    /** How old an answer's nonce may be; a little more than a person's round trip through Steam's page. */
    static final Duration NONCE_AGE = Duration.ofMinutes(5);
    /** How far ahead of this clock an endpoint's clock may be. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(1);
    /** The fields the endpoint must have signed (§10.1; claimed_id and identity since this service needs them). */
    static final Set<String> MUST_BE_SIGNED = Set.of("op_endpoint", "return_to", "response_nonce", "assoc_handle",
            "claimed_id", "identity");
    private static final int MAX_ANSWER = 16 * 1024;

    /** An answer refused; {@code reason} is for the log only (no value of the answer in it). */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean cancelled;

        Refused(String reason) {
            this(reason, false);
        }

        Refused(String reason, boolean cancelled) {
            super(reason);
            this.cancelled = cancelled;
        }
    }

    private final SteamSettings steam;
    private final IdentityProperties identity;
    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    SteamAssertions(SteamSettings steam, IdentityProperties identity, JdbcTemplate jdbc, Clock clock) {
        this.steam = steam;
        this.identity = identity;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** This service's {@code openid.return_to}, which carries the session's {@code state}. */
    String returnTo(String state) {
        return identity.issuerUrl() + Endpoints.STEAM_RETURN + "?estado=" + state;
    }

    /** Where to send the browser: the endpoint with a {@code checkid_setup} request (§9.1). */
    String authenticationRequest(String state) {
        Map<String, String> request = new LinkedHashMap<>();
        request.put("openid.ns", NS);
        request.put("openid.mode", "checkid_setup");
        request.put("openid.return_to", returnTo(state));
        request.put("openid.realm", identity.issuerUrl());
        request.put("openid.identity", IDENTIFIER_SELECT);
        request.put("openid.claimed_id", IDENTIFIER_SELECT);
        return steam.endpoint() + "?" + form(request);
    }

    /**
     * Checks an answer (the {@code openid.*} parameters of the return, each once) and records its nonce.
     *
     * @return the SteamID64 it asserts
     */
    String verify(Map<String, String> answer, String expectedReturnTo) throws Refused {
        String mode = answer.get("openid.mode");
        if ("cancel".equals(mode)) {
            throw new Refused("cancelled at the provider", true);
        }
        if (!"id_res".equals(mode)) {
            throw new Refused("mode is not id_res");
        }
        if (!NS.equals(answer.get("openid.ns"))) {
            throw new Refused("not an OpenID 2.0 answer");
        }
        if (!expectedReturnTo.equals(answer.get("openid.return_to"))) {
            throw new Refused("return_to is not this login's");
        }
        if (!steam.endpoint().toString().equals(answer.get("openid.op_endpoint"))) {
            throw new Refused("op_endpoint is not the configured endpoint");
        }
        String claimed = answer.get("openid.claimed_id");
        Matcher id = claimed == null ? null : steam.claimedId().matcher(claimed);
        if (id == null || !id.matches() || !claimed.equals(answer.get("openid.identity"))) {
            throw new Refused("claimed_id is not a SteamID of this endpoint");
        }
        String signed = answer.get("openid.signed");
        if (signed == null || answer.get("openid.sig") == null
                || !Set.of(signed.split(",", -1)).containsAll(MUST_BE_SIGNED)) {
            throw new Refused("fields not signed");
        }
        String nonce = answer.get("openid.response_nonce");
        if (!fresh(nonce)) {
            throw new Refused("response_nonce missing, malformed or too old");
        }
        if (!valid(answer)) {
            throw new Refused("check_authentication did not answer is_valid:true");
        }
        record(nonce);
        return id.group(1);
    }

    /** §10.1: the nonce starts with the endpoint's time in UTC, {@code 2005-05-15T17:11:51Z}, at most 255 characters. */
    private boolean fresh(String nonce) {
        if (nonce == null || nonce.length() < 20 || nonce.length() > 255 || nonce.charAt(19) != 'Z') {
            return false;
        }
        Instant at;
        try {
            at = Instant.parse(nonce.substring(0, 20));
        }
        catch (DateTimeParseException e) {
            return false;
        }
        Instant now = clock.instant();
        return !at.isBefore(now.minus(NONCE_AGE)) && !at.isAfter(now.plus(CLOCK_SKEW));
    }

    /** §11.4.2: the same fields back to the endpoint, directly, with {@code check_authentication}. */
    private boolean valid(Map<String, String> answer) throws Refused {
        Map<String, String> check = new LinkedHashMap<>(answer);
        check.put("openid.mode", "check_authentication");
        HttpRequest request = HttpRequest.newBuilder(steam.endpoint()).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(form(check))).build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() != 200) {
                    return false;
                }
                Map<String, String> fields = keyValues(new String(body.readNBytes(MAX_ANSWER), StandardCharsets.UTF_8));
                return "true".equals(fields.get("is_valid")) && NS.equals(fields.get("ns"));
            }
        }
        catch (IOException e) {
            throw new Refused("check_authentication failed: " + e.getClass().getSimpleName());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refused("interrupted");
        }
    }

    /** §4.1.1's key-value form: {@code key:value} lines, each ending with a newline. */
    static Map<String, String> keyValues(String text) {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.putIfAbsent(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    /** First use wins: the primary key refuses the same nonce of the same endpoint at any instance. */
    private void record(String nonce) throws Refused {
        try {
            jdbc.update("insert into openid_nonces (endpoint, nonce, received_at) values (?, ?, ?)",
                    steam.endpoint().toString(), nonce, Timestamp.from(clock.instant()));
        }
        catch (DuplicateKeyException replayed) {
            throw new Refused("response_nonce already used");
        }
    }

    static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> UriUtils.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + UriUtils.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    /** The {@code openid.*} parameters of a request, each given once; null when one is repeated. */
    static Map<String, String> openIdParameters(Map<String, String[]> parameters) {
        Map<String, String> found = new LinkedHashMap<>();
        for (var e : parameters.entrySet()) {
            if (e.getKey().startsWith("openid.")) {
                if (e.getValue().length != 1) {
                    return null;
                }
                found.put(e.getKey(), e.getValue()[0]);
            }
        }
        return found;
    }

    @Override
    public Kind kind() {
        return Kind.EXPIRED_CODES;
    }

    /** Nonces too old to be accepted anyway (never younger than the age and skew allowed, whatever the cutoff). */
    @Transactional
    @Override
    public int purge(Instant cutoff, Instant now) {
        Instant oldest = now.minus(NONCE_AGE).minus(CLOCK_SKEW).minus(Duration.ofMinutes(1));
        Instant before = cutoff.isBefore(oldest) ? cutoff : oldest;
        return jdbc.update("delete from openid_nonces where received_at < ?", Timestamp.from(before));
    }
}
