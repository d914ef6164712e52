package com.example.identity.webhooks;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.client.ClientDirectory;
import com.example.identity.common.ClientGrants;
import com.example.identity.guestaccount.Guests;

/**
 * The applications' webhooks ({@code webhook_endpoints}, V48) and who gets a person's events: an application
 * with a webhook, not revoked, to which the person has a grant in force (a consent, a token neither revoked nor
 * expired, a code not yet spent: each asked of the feature that keeps it, {@link ClientGrants}), or that made the
 * person's guest account, and a {@code servidor} application with a webhook whose owner owns such an application
 * (a game's back end hears about the players of its game's launcher, console or web site; decisions §21,
 * docs/decisions.md D36). What an application is and whose it is, {@code client/} answers ({@link ClientDirectory}).
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

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final Guests guests;
    private final List<ClientGrants> grants;
    private final ClientDirectory clients;

    WebhookEndpoints(JdbcTemplate jdbc, Clock clock, Guests guests, List<ClientGrants> grants, ClientDirectory clients) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.guests = guests;
        this.grants = List.copyOf(grants);
        this.clients = clients;
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
        if (!clients.active(clientId)) {
            return Optional.empty();
        }
        return jdbc.query("select url, secret from webhook_endpoints where client_id = ?",
                (rs, i) -> new Endpoint(rs.getString(1), rs.getString(2)), clientId).stream().findFirst();
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
        return withWebhook(clients.withTheirOwnersServers(List.of(clientId)));
    }

    /**
     * The applications told about {@code userId}'s account, by client id: those to which the person has a grant in
     * force now (a consent, a token neither revoked nor expired, a code not yet spent: issue 39.5, so that withdrawing
     * the consent or revoking the last grant ends the events) and their owners' {@code servidor} applications, those
     * with a webhook and not revoked. A guest player's game is one of them however long ago its tokens ended
     * (decisions §24: an idle guest is deleted long after its last token is purged).
     */
    List<String> recipients(long userId) {
        Instant now = clock.instant();
        Set<String> used = new TreeSet<>();
        for (ClientGrants kind : grants) {
            used.addAll(kind.clientsOf(userId, now));
        }
        guests.applicationOf(userId).ifPresent(used::add);
        return withWebhook(clients.withTheirOwnersServers(used));
    }

    /** Those of {@code clientIds} that have a webhook, in order. */
    private List<String> withWebhook(Set<String> clientIds) {
        return List.copyOf(new TreeSet<>(urls(clientIds).keySet()));
    }

    /** Deletes the webhooks of {@code clientIds} and their deliveries on record (their applications are deleted). */
    void forget(Collection<String> clientIds) {
        for (String clientId : clientIds) {
            jdbc.update("delete from webhook_deliveries where client_id = ?", clientId);
            jdbc.update("delete from webhook_endpoints where client_id = ?", clientId);
        }
    }
}
