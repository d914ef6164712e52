package com.example.identity.client;

import java.util.Collection;
import java.util.Map;

/**
 * The webhook addresses of applications, by client id, for the download's {@code aplicaciones}: webhooks/ owns
 * them and implements this (it imports client/, so client/ asks through this port), never the secret.
 */
public interface ApplicationWebhooks {

    /** The address of each of {@code clientIds} that has a webhook. */
    Map<String, String> urls(Collection<String> clientIds);
}
