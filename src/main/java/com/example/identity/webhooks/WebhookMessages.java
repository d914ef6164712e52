package com.example.identity.webhooks;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Component;

import com.example.identity.outbox.Outbox;

import tools.jackson.databind.json.JsonMapper;

/**
 * Puts an event for one application in the outbox (docs/webhooks.md): its body, fixed now, is Standard Webhooks'
 * {@code {"type", "timestamp", "data"}}; its {@code webhook-id} ({@code msg_} + a random UUID) stays the same at
 * every attempt, so a receiver can drop repeats. One outbox key per application and subject: one person's events
 * reach an application in the order they happened, and a receiver that is down delays only its own.
 */
@Component
class WebhookMessages {

    static final String KIND = "webhook";
    static final JsonMapper JSON = JsonMapper.builder().build();

    private final Outbox outbox;
    private final Clock clock;

    WebhookMessages(Outbox outbox, Clock clock) {
        this.outbox = outbox;
        this.clock = clock;
    }

    /** Enqueues {@code type} with {@code data} for {@code clientId}, in order with the others of {@code subject}. */
    void enqueue(String clientId, String subject, String type, Map<String, Object> data) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("timestamp", clock.instant().toString());
        body.put("data", data);
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("client_id", clientId);
        message.put("webhook_id", "msg_" + UUID.randomUUID().toString().replace("-", ""));
        message.put("type", type);
        message.put("body", JSON.writeValueAsString(body));
        outbox.enqueue(KIND, KIND + ":" + clientId + ":" + subject, JSON.writeValueAsString(message));
    }
}
