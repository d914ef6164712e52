package com.example.identity.webhooks;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code identity.webhooks.*} (docs/webhooks.md).
 *
 * @param allowHttp whether a {@code webhook_url} may be {@code http://} to this machine (localhost, 127.0.0.1,
 *     [::1]): for tests and local development only (default false: {@code https://} to a public host)
 * @param timeout how long one delivery may take, connection included, before it counts as failed (default 10s;
 *     keep it under {@code identity.outbox.lease})
 */
@ConfigurationProperties("identity.webhooks")
public record WebhookSettings(@DefaultValue("false") boolean allowHttp, @DefaultValue("10s") Duration timeout) {
}
