package com.example.identity.webhooks;

import java.util.Collection;
import java.util.Map;

import org.springframework.stereotype.Component;

import com.example.identity.client.ApplicationWebhooks;

/** The webhook addresses client/ shows in the person's download ({@link ApplicationWebhooks}), never a secret. */
@Component
class WebhookAddresses implements ApplicationWebhooks {

    private final WebhookEndpoints endpoints;

    WebhookAddresses(WebhookEndpoints endpoints) {
        this.endpoints = endpoints;
    }

    @Override
    public Map<String, String> urls(Collection<String> clientIds) {
        return endpoints.urls(clientIds);
    }

    @Override
    public void forget(Collection<String> clientIds) {
        endpoints.forget(clientIds);
    }
}
