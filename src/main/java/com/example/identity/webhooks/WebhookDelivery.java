package com.example.identity.webhooks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import org.springframework.stereotype.Component;

import com.example.identity.outbox.OutboxHandler;
import com.example.identity.outbox.OutboxMessage;

import tools.jackson.databind.JsonNode;

/**
 * Delivers a webhook from the outbox (on its dispatcher's thread, never a request's): the body as enqueued, POSTed
 * as {@code application/json} to the application's current {@code webhook_url} with Standard Webhooks' headers
 * {@code webhook-id} (the same at every attempt), {@code webhook-timestamp} (this attempt's, in seconds) and
 * {@code webhook-signature} ({@code v1,} + the HMAC-SHA256 of {@code id.timestamp.body} with the application's
 * secret). Redirects are not followed; {@code identity.webhooks.timeout} bounds the connection and the answer. A 2xx
 * answer is delivered; anything else is tried again by the outbox with back-off, for 24 hours. Every attempt is
 * recorded for the dashboard. An application revoked, or gone, since the event is not told.
 */
@Component
class WebhookDelivery implements OutboxHandler {

    private final WebhookEndpoints endpoints;
    private final WebhookDeliveries deliveries;
    private final Clock clock;
    private final Duration timeout;
    private final HttpClient http;

    WebhookDelivery(WebhookEndpoints endpoints, WebhookDeliveries deliveries, WebhookSettings settings, Clock clock) {
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.clock = clock;
        this.timeout = settings.timeout();
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public String kind() {
        return WebhookMessages.KIND;
    }

    @Override
    public void deliver(OutboxMessage message) throws IOException, InterruptedException {
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
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint.get().url()))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("webhook-id", webhookId)
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", WebhookSignature.header(endpoint.get().secret(), webhookId, timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<Void> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.discarding());
        }
        catch (IOException e) {
            deliveries.record(clientId, webhookId, type, message.attempt(), WebhookDeliveries.Outcome.NO_ANSWER, null);
            throw e;
        }
        boolean delivered = response.statusCode() / 100 == 2;
        deliveries.record(clientId, webhookId, type, message.attempt(),
                delivered ? WebhookDeliveries.Outcome.DELIVERED : WebhookDeliveries.Outcome.REFUSED, response.statusCode());
        if (!delivered) {
            throw new RefusedException(response.statusCode());
        }
    }

    /** The receiver answered, but not with 2xx. */
    static final class RefusedException extends IOException {
        RefusedException(int status) {
            super("HTTP " + status);
        }
    }
}
