package com.example.identity.dashboard;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.example.identity.client.ClientLogoutUris;
import com.example.identity.client.OAuthClient;
import com.example.identity.apitoken.ApiToken;

/** What the dashboard tables show, formatted once (UTC, to the minute) so templates stay plain. */
final class Views {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Views() {
    }

    static String when(Instant instant) {
        return instant == null ? "—" : WHEN.format(instant);
    }

    /**
     * {@code scope}: perfil or gestion for a personal token, the OAuth scopes for one issued to a client;
     * {@code expires} null for a token that never expires (the page says so in its language).
     */
    record TokenRow(long id, String name, String prefix, String kind, String scope, String created, String lastUsed,
            String expires, String state, boolean active, long ownerId, String owner) {

        static TokenRow of(ApiToken token, Instant now, String owner) {
            boolean expired = token.isExpiredAt(now);
            String state = token.isRevoked() ? "Revocado" : expired ? "Caducado" : "Activo";
            return new TokenRow(token.getId(), token.getName(), token.getPrefix(), token.getKind().value(), token.scope(),
                    when(token.getCreatedAt()), when(token.getLastUsedAt()),
                    token.getExpiresAt() == null ? null : when(token.getExpiresAt()), state,
                    !token.isRevoked() && !expired, token.getUserId(), owner);
        }
    }

    /**
     * {@code type}: web, nativa or dispositivo; {@code postLogoutRedirectUris}: those registered, maybe none;
     * {@code guests}: it accepts guest players (decisions §24).
     */
    record ClientRow(String clientId, String name, String redirectUri, String created, String state, boolean active,
            long ownerId, String owner, boolean firstParty, String type, List<String> postLogoutRedirectUris,
            boolean guests) {

        static ClientRow of(OAuthClient client, String owner, List<String> postLogoutRedirectUris) {
            return new ClientRow(client.getClientId(), client.getName(), client.getRedirectUri(),
                    when(client.getCreatedAt()), client.isRevoked() ? "Revocada" : "Activa", !client.isRevoked(),
                    client.getOwnerId(), owner, client.isFirstParty(), client.getType().value(),
                    postLogoutRedirectUris == null ? List.of() : postLogoutRedirectUris, client.acceptsGuests());
        }

        /** Rows of {@code clients}, each with its logout addresses, read in one query. */
        static List<ClientRow> of(List<OAuthClient> clients, Function<OAuthClient, String> owner,
                ClientLogoutUris logoutUris) {
            Map<String, List<String>> logout = logoutUris.of(clients.stream().map(OAuthClient::getClientId).toList());
            return clients.stream().map(c -> of(c, owner.apply(c), logout.get(c.getClientId()))).toList();
        }
    }

    /** An application's webhook: its address and its last {@link #SHOWN} attempts, newest first. */
    record WebhookRow(String clientId, String name, boolean active, String url, List<DeliveryRow> deliveries) {

        static final int SHOWN = 10;

        static List<WebhookRow> of(List<ClientRow> clients, Map<String, com.example.identity.webhooks.Webhooks.Overview> found) {
            return clients.stream().filter(c -> found.containsKey(c.clientId())).map(c -> {
                var overview = found.get(c.clientId());
                return new WebhookRow(c.clientId(), c.name(), c.active(), overview.url(),
                        overview.attempts().stream().map(DeliveryRow::of).toList());
            }).toList();
        }
    }

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    /** One attempt: {@code status} is the HTTP status, or "—" when there was no answer; {@code when} to the second. */
    record DeliveryRow(String eventType, String webhookId, int attempt, String outcome, String status, String when) {

        static DeliveryRow of(com.example.identity.webhooks.Webhooks.Attempt attempt) {
            return new DeliveryRow(attempt.eventType(), attempt.webhookId(), attempt.attempt(), attempt.outcome(),
                    attempt.httpStatus() == null ? "—" : attempt.httpStatus().toString(), SECONDS.format(attempt.at()));
        }
    }
}
