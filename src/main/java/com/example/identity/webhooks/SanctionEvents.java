package com.example.identity.webhooks;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.stereotype.Component;

import com.example.identity.sanctions.Sanction;
import com.example.identity.sanctions.SanctionNotices;

/**
 * Sanctions become webhooks (decisions §26, docs/webhooks.md), enqueued in the transaction of the change with the
 * person's other events (one outbox key per application and person: in order with {@code usuario.*}):
 * <ul>
 * <li>{@code usuario.sancionado} when one is placed: a sanction in one application goes to that application and its
 * owner's {@code servidor} applications; a global one to the applications that are told about the person's account
 * ({@link WebhookEndpoints#recipients}), found before the sanction revokes their tokens.</li>
 * <li>{@code usuario.sancion_levantada} when it is lifted early or its end came (sanctions/SanctionEnds): to those told
 * of it, and to those concerned now.</li>
 * </ul>
 * {@code data}: {@code id} and {@code sub} of the person, {@code sancion_id}, {@code motivo}, {@code hasta} (ISO-8601,
 * or null for a permanent one) and {@code client_id} (null for a global one).
 */
@Component
class SanctionEvents implements SanctionNotices {

    static final String PLACED = "usuario.sancionado";
    static final String ENDED = "usuario.sancion_levantada";

    private final WebhookEndpoints endpoints;
    private final WebhookMessages messages;

    SanctionEvents(WebhookEndpoints endpoints, WebhookMessages messages) {
        this.endpoints = endpoints;
        this.messages = messages;
    }

    @Override
    public List<String> placed(Sanction sanction) {
        List<String> told = concerned(sanction);
        told.forEach(clientId -> messages.enqueue(clientId, subject(sanction), PLACED, data(sanction)));
        return told;
    }

    @Override
    public void ended(Sanction sanction, Collection<String> toldAtStart) {
        Set<String> told = new TreeSet<>(concerned(sanction));
        // those told at the start that still have a webhook (a delivery skips a revoked application)
        told.addAll(endpoints.urls(toldAtStart).keySet());
        told.forEach(clientId -> messages.enqueue(clientId, subject(sanction), ENDED, data(sanction)));
    }

    private List<String> concerned(Sanction sanction) {
        String clientId = sanction.clientId();
        return clientId == null ? endpoints.recipients(sanction.userId()) : endpoints.concerning(clientId);
    }

    private static String subject(Sanction sanction) {
        return "user:" + sanction.userId();
    }

    private static Map<String, Object> data(Sanction sanction) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", sanction.userId());
        data.put("sub", "user:" + sanction.userId());
        data.put("sancion_id", sanction.id());
        data.put("motivo", sanction.motivo());
        data.put("hasta", sanction.hasta() == null ? null : sanction.hasta().toString());
        data.put("client_id", sanction.clientId());
        return data;
    }
}
