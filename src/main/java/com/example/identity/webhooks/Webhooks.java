package com.example.identity.webhooks;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.client.OAuthClient;
import com.example.identity.outbound.OutboundSettings;

/**
 * Applications' webhooks as the dashboard and {@code POST /api/clients/create.php} use them (decisions §21,
 * docs/webhooks.md): check a {@code webhook_url}, give an application its webhook (the secret returned once), send a
 * test event, list the recent deliveries.
 */
@Service
public class Webhooks {

    /** The test event's type: its data names the application, no person. */
    public static final String TEST_EVENT = "webhook.prueba";

    private final WebhookEndpoints endpoints;
    private final WebhookDeliveries deliveries;
    private final WebhookMessages messages;
    private final ClientService clients;
    private final OutboundSettings settings;

    Webhooks(WebhookEndpoints endpoints, WebhookDeliveries deliveries, WebhookMessages messages, ClientService clients,
            OutboundSettings settings) {
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.messages = messages;
        this.clients = clients;
        this.settings = settings;
    }

    /** A {@code webhook_url} refused: the Spanish reason, in the API's words. */
    public static class InvalidWebhookUrlException extends RuntimeException {
        public InvalidWebhookUrlException(String message) {
            super(message);
        }
    }

    /**
     * {@code webhookUrl} cleaned: empty when none was given (null or empty).
     *
     * @throws InvalidWebhookUrlException when it is not acceptable
     */
    public Optional<String> check(String webhookUrl) {
        if (webhookUrl == null || webhookUrl.isEmpty()) {
            return Optional.empty();
        }
        WebhookUrlRule.problemWith(webhookUrl, settings.allowLoopback()).ifPresent(problem -> {
            throw new InvalidWebhookUrlException(problem);
        });
        return Optional.of(webhookUrl);
    }

    /** Gives a just registered application its webhook at a {@link #check checked} address; the secret, shown once. */
    @Transactional
    public String register(String clientId, String webhookUrl) {
        return endpoints.register(clientId, webhookUrl);
    }

    /**
     * Gives an application {@code caller} may change, active and not a device's, a webhook at {@code webhookUrl} (a new
     * address, or the same one for a new secret) in place of the one it had, if any.
     *
     * @return the new secret, shown once; empty when there is no such application
     * @throws InvalidWebhookUrlException when the address is not acceptable (or empty)
     */
    @Transactional
    public Optional<String> replace(Caller caller, String clientId, String webhookUrl) {
        Optional<String> url = check(webhookUrl);
        if (url.isEmpty()) {
            throw new InvalidWebhookUrlException("webhook_url inválido: falta la dirección");
        }
        Optional<OAuthClient> client = clients.findByClientId(clientId)
                .filter(c -> caller.mayActOn(c.getOwnerId()) && !c.isRevoked());
        return client.map(c -> endpoints.replace(clientId, url.get()));
    }

    /**
     * Enqueues a {@value #TEST_EVENT} event for an application {@code caller} may change, active, with a webhook.
     *
     * @return false when there is no such application
     */
    @Transactional
    public boolean sendTest(Caller caller, String clientId) {
        Optional<OAuthClient> client = clients.findByClientId(clientId)
                .filter(c -> caller.mayActOn(c.getOwnerId()) && !c.isRevoked());
        if (client.isEmpty() || endpoints.active(clientId).isEmpty()) {
            return false;
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("client_id", clientId);
        data.put("mensaje", "Evento de prueba enviado desde el panel");
        messages.enqueue(clientId, "prueba", TEST_EVENT, data);
        return true;
    }

    /** One application's webhook as the dashboard shows it: the address and the newest attempts. */
    public record Overview(String url, List<Attempt> attempts) {
    }

    /** One attempt: the event's type and id, the attempt's number, how it went, the HTTP status if any, when. */
    public record Attempt(String webhookId, String eventType, int attempt, String outcome, Integer httpStatus,
            Instant at) {
    }

    /** The webhooks of those of {@code clientIds} that have one, each with its newest {@code limit} attempts. */
    @Transactional(readOnly = true)
    public Map<String, Overview> overview(List<String> clientIds, int limit) {
        Map<String, Overview> found = new LinkedHashMap<>();
        endpoints.urls(clientIds).forEach((clientId, url) -> found.put(clientId, new Overview(url,
                deliveries.newest(clientId, limit))));
        return found;
    }
}
