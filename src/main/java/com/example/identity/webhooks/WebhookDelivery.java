package com.example.identity.webhooks;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

import com.example.identity.outbound.ReceiverClient;
import com.example.identity.outbox.OutboxHandler;
import com.example.identity.outbox.OutboxMessage;

import tools.jackson.databind.JsonNode;

/**
 * Delivers a webhook from the outbox (on one of its delivery threads, never a request's): the body as enqueued, POSTed
 * as {@code application/json} to the application's current {@code webhook_url} with Standard Webhooks' headers
 * {@code webhook-id} (the same at every attempt), {@code webhook-timestamp} (this attempt's, in seconds) and
 * {@code webhook-signature} ({@code v1,} + the HMAC-SHA256 of {@code id.timestamp.body} with the application's
 * secret), through {@link ReceiverClient}: the address checked at delivery, no redirect, the whole exchange within
 * {@code identity.outbound.timeout}. A 2xx answer is delivered; anything else is tried again by the outbox with
 * back-off, for 24 hours. Every attempt is recorded for the dashboard. An application revoked, or gone, since the
 * event is not told.
 */
@Component
class WebhookDelivery implements OutboxHandler {

    private final WebhookEndpoints endpoints;
    private final WebhookDeliveries deliveries;
    private final ReceiverClient receivers;
    private final Clock clock;

    WebhookDelivery(WebhookEndpoints endpoints, WebhookDeliveries deliveries, ReceiverClient receivers, Clock clock) {
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.receivers = receivers;
        this.clock = clock;
    }

    @Override
    public String kind() {
        return WebhookMessages.KIND;
    }

    @Override
    public Duration longestDelivery() {
        return receivers.longestExchange();
    }

    /** The application: its events share the per-receiver share of the outbox's threads. */
    @Override
    public String receiver(OutboxMessage message) {
        return WebhookMessages.JSON.readTree(message.payload()).get("client_id").asString();
    }

    @Override
    public void deliver(OutboxMessage message) throws IOException {
        JsonNode payload = WebhookMessages.JSON.readTree(message.payload());
        String clientId = payload.get("client_id").asString();
        String webhookId = payload.get("webhook_id").asString();
        String type = payload.get("type").asString();
        String body = payload.get("body").asString();
        Optional<WebhookEndpoints.Endpoint> endpoint = endpoints.active(clientId);
        if (endpoint.isEmpty()) {
            return;
        }
        long timestamp = clock.instant().getEpochSecond();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("webhook-id", webhookId);
        headers.put("webhook-timestamp", Long.toString(timestamp));
        headers.put("webhook-signature", WebhookSignature.header(endpoint.get().secret(), webhookId, timestamp, body));
        WebhookDeliveries.Outcome outcome = WebhookDeliveries.Outcome.NO_ANSWER;
        Integer status = null;
        try {
            status = receivers.post(endpoint.get().url(), "application/json", headers, body);
            outcome = WebhookDeliveries.Outcome.DELIVERED;
        }
        catch (ReceiverClient.RefusedException e) {
            outcome = WebhookDeliveries.Outcome.REFUSED;
            status = e.status();
            throw e;
        }
        catch (ReceiverClient.ForbiddenAddressException e) {
            outcome = WebhookDeliveries.Outcome.FORBIDDEN;
            throw e;
        }
        finally {
            deliveries.record(clientId, webhookId, type, message.attempt(), outcome, status);
        }
    }
}
