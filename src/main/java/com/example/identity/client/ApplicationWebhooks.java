package com.example.identity.client;

import java.util.Collection;
import java.util.Map;

/**
 * The webhooks of applications, by client id: their addresses for the download's {@code aplicaciones} (never the
 * secret), and their end when the applications are deleted with their owner's account. webhooks/ owns them and
 * implements this (it imports client/, so client/ asks through this port).
 */
public interface ApplicationWebhooks {

    /** The address of each of {@code clientIds} that has a webhook. */
    Map<String, String> urls(Collection<String> clientIds);

    /** Deletes the webhooks of {@code clientIds} and their deliveries, as their applications are deleted. */
    void forget(Collection<String> clientIds);
}
