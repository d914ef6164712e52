package com.example.identity.webhooks;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.guestaccount.Guests;

/**
 * The applications' webhooks ({@code webhook_endpoints}, V48) and who gets a person's events: an application
 * with a webhook, not revoked, that the person has used (a consent, an authorization, a token or a refresh token
 * of theirs issued to it is on record, or it made the person's guest account), and a {@code servidor} application with a webhook whose owner owns such an
 * application (a game's back end hears about the players of its game's launcher, console or web site; decisions
 * §21, docs/decisions.md D36).
 */
@Component
class WebhookEndpoints {

    /** What a delivery needs of an application's webhook. */
    record Endpoint(String url, String secret) {
        @Override
        public String toString() {
            return "Endpoint[url=" + url + ", secret=<hidden>]";
        }
    }

    private static final String USED = """
            select client_id from oauth_consents where user_id = ?
            union select client_id from oauth_authorizations where user_id = ?
            union select client_id from api_tokens where user_id = ? and client_id is not null
            union select client_id from refresh_tokens where user_id = ?""";

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final Guests guests;

    WebhookEndpoints(JdbcTemplate jdbc, Clock clock, Guests guests) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.guests = guests;
    }

    /** Gives {@code clientId} a webhook at {@code url} (checked by the caller) with a new secret, returned. */
    String register(String clientId, String url) {
        String secret = WebhookSignature.newSecret();
        jdbc.update("insert into webhook_endpoints (client_id, url, secret, created_at) values (?, ?, ?, ?)", clientId,
                url, secret, Timestamp.from(clock.instant()));
        return secret;
    }

    /**
     * Gives {@code clientId} a webhook at {@code url} (checked by the caller) with a new secret, returned, in place of
     * the one it had: the old secret stops signing at once (messages already queued are signed at delivery, with the
     * new one).
     */
    String replace(String clientId, String url) {
        jdbc.update("delete from webhook_endpoints where client_id = ?", clientId);
        return register(clientId, url);
    }

    /** The webhook of {@code clientId} if it has one and is not revoked. */
    Optional<Endpoint> active(String clientId) {
        return jdbc.query("select w.url, w.secret from webhook_endpoints w join oauth_clients c on c.client_id = w.client_id "
                + "where w.client_id = ? and c.revoked_at is null", (rs, i) -> new Endpoint(rs.getString(1), rs.getString(2)),
                clientId).stream().findFirst();
    }

    /** The webhook addresses of those of {@code clientIds} that have one. */
    Map<String, String> urls(Collection<String> clientIds) {
        Map<String, String> urls = new LinkedHashMap<>();
        if (clientIds.isEmpty()) {
            return urls;
        }
        String marks = String.join(", ", java.util.Collections.nCopies(clientIds.size(), "?"));
        jdbc.query("select client_id, url from webhook_endpoints where client_id in (" + marks + ")",
                rs -> {
                    urls.put(rs.getString(1), rs.getString(2));
                }, clientIds.toArray());
        return urls;
    }

    /**
     * The applications told about what happens to a person in application {@code clientId} (a sanction there,
     * decisions §26): that application, and its owner's {@code servidor} applications (D36), those with a webhook and
     * not revoked, by client id.
     */
    List<String> concerning(String clientId) {
        return jdbc.queryForList("select w.client_id from webhook_endpoints w join oauth_clients c on c.client_id = w.client_id "
                + "where c.revoked_at is null and (c.client_id = ? or (c.client_type = 'servidor' and c.owner_id in "
                + "(select o.owner_id from oauth_clients o where o.client_id = ?))) order by w.client_id",
                String.class, clientId, clientId);
    }

    /**
     * The applications told about {@code userId}'s account, by client id. A guest player's game is one of them however
     * long ago its tokens ended (decisions §24: an idle guest is deleted long after its last token is purged).
     */
    List<String> recipients(long userId) {
        String game = guests.applicationOf(userId).orElse(null);
        Object[] args = { userId, userId, userId, userId, game, userId, userId, userId, userId, game };
        return jdbc.queryForList("select w.client_id from webhook_endpoints w join oauth_clients c on c.client_id = w.client_id "
                + "where c.revoked_at is null and (c.client_id in (" + USED + ") or c.client_id = ? or (c.client_type = 'servidor' "
                + "and c.owner_id in (select o.owner_id from oauth_clients o where o.client_id in (" + USED + ") "
                + "or o.client_id = ?))) order by w.client_id", String.class, args);
    }
}
