package com.example.identity.oauth.store;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

import com.example.identity.Endpoints;
import com.example.identity.common.LocalRedirect;
import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;

/**
 * Authorization requests pushed to {@code /oauth/par.php} (RFC 9126, decisions §28), in the
 * {@code pushed_authorization_requests} table, so that a request pushed to one instance is taken at the authorization
 * endpoint of any other. The {@code request_uri} is {@value #PREFIX} followed by 256 random bits (43 base64url
 * characters); only their SHA-256 digest is stored, with the client it belongs to, the request's parameters as the
 * client sent them (form-encoded) and its end, {@link #LIFETIME} after the push. Taking it ({@link #take}) deletes
 * the row: one use, whichever instance takes it first. Rows left untaken are purged once past their minute.
 *
 * <p>Spring Authorization Server's own provider is not used to keep them: it saves a pushed request as an
 * authorization without a user, with a serialized request, in the {@code OAuth2AuthorizationService}, which here
 * stores codes in typed columns; and it fixes their lifetime at 300 s, where the contract says 60.
 */
@Component
public class PushedRequests implements Purge {

    /** RFC 9126 §2.2: the scheme of the {@code request_uri}s this endpoint hands out. */
    public static final String PREFIX = "urn:ietf:params:oauth:request_uri:";
    /** How long a pushed request waits to be taken (decisions §28: {@code expires_in} 60). */
    public static final Duration LIFETIME = Duration.ofSeconds(60);
    /**
     * The longest pushed request taken, form-encoded: the authorization endpoint goes on with it as a local URL
     * ({@code /oauth/authorize.php?...}), which the login page must be able to lead back to
     * ({@link LocalRedirect#MAX_LENGTH}). The column has room for twice as much.
     */
    public static final int MAX_LENGTH = LocalRedirect.MAX_LENGTH - (Endpoints.AUTHORIZE.length() + 1);

    private final JdbcTemplate jdbc;
    private final Clock clock;

    PushedRequests(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A request stored for a client: the {@code request_uri} to give it and when that stops working. */
    public record Pushed(String requestUri, Instant expiresAt) {
        @Override
        public String toString() {
            return "Pushed[expiresAt=" + expiresAt + "]";
        }
    }

    /** The form encoding of {@code parameters} as stored, or what its length would be. */
    public static String encode(MultiValueMap<String, String> parameters) {
        return parameters.entrySet().stream()
                .flatMap(e -> e.getValue().stream().map(value -> UriUtils.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "=" + UriUtils.encode(value, StandardCharsets.UTF_8)))
                .collect(Collectors.joining("&"));
    }

    /**
     * Stores {@code parameters} (already checked, at most {@link #MAX_LENGTH} encoded) for {@code clientId}: one
     * INSERT, its own commit.
     */
    public Pushed push(String clientId, MultiValueMap<String, String> parameters) {
        String encoded = encode(parameters);
        if (encoded.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a pushed request of " + encoded.length() + " characters");
        }
        String value = Secrets.randomUrlSafe(32);
        Instant now = clock.instant();
        Instant expiresAt = now.plus(LIFETIME);
        jdbc.update("""
                insert into pushed_authorization_requests (request_digest, client_id, parameters, created_at, expires_at)
                values (?, ?, ?, ?, ?)""", Secrets.sha256Hex(value), clientId, encoded, Timestamp.from(now),
                Timestamp.from(expiresAt));
        return new Pushed(PREFIX + value, expiresAt);
    }

    /**
     * Takes the request behind {@code requestUri} for {@code clientId}: its parameters, once. Empty when it is not a
     * {@code request_uri} of this endpoint, was never pushed, was taken already (here or on another instance), has
     * expired, or belongs to another client (which does not spend it).
     */
    @Transactional
    public Optional<MultiValueMap<String, String>> take(String requestUri, String clientId) {
        if (!isPushed(requestUri)) {
            return Optional.empty();
        }
        String digest = Secrets.sha256Hex(requestUri.substring(PREFIX.length()));
        List<Row> rows = jdbc.query(
                "select client_id, parameters, expires_at from pushed_authorization_requests where request_digest = ?",
                (rs, n) -> new Row(rs.getString(1), rs.getString(2), rs.getObject(3, OffsetDateTime.class).toInstant()),
                digest);
        if (rows.isEmpty() || !clientId.equals(rows.get(0).clientId())) {
            return Optional.empty();
        }
        // one use: of two instances taking it at once, one deletes the row
        if (jdbc.update("delete from pushed_authorization_requests where request_digest = ?", digest) != 1
                || !rows.get(0).expiresAt().isAfter(clock.instant())) {
            return Optional.empty();
        }
        return Optional.of(decode(rows.get(0).parameters()));
    }

    private record Row(String clientId, String parameters, Instant expiresAt) {
    }

    /** Whether {@code value} has the shape of a {@code request_uri} this endpoint hands out. */
    public static boolean isPushed(String value) {
        return value != null && value.length() == PREFIX.length() + 43 && value.startsWith(PREFIX)
                && value.substring(PREFIX.length()).chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128
                        || c == '-' || c == '_');
    }

    private static MultiValueMap<String, String> decode(String encoded) {
        MultiValueMap<String, String> parameters = new LinkedMultiValueMap<>();
        UriComponentsBuilder.newInstance().query(encoded).build().getQueryParams().forEach((name, values) ->
                values.forEach(value -> parameters.add(UriUtils.decode(name, StandardCharsets.UTF_8),
                        value == null ? "" : UriUtils.decode(value, StandardCharsets.UTF_8))));
        return parameters;
    }

    @Override
    public Kind kind() {
        return Kind.SEEN_PROOFS;
    }

    /** Deletes the pushed requests nobody took in their minute (the kind's cutoff is now). */
    @Override
    @Transactional
    public int purge(Instant cutoff, Instant now) {
        return jdbc.update("delete from pushed_authorization_requests where expires_at < ?", Timestamp.from(cutoff));
    }
}
