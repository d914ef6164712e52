package com.example.identity.webhooks;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A webhook receiver of the tests' own (a JDK HTTP server on 127.0.0.1): each path is one application's webhook with
 * its secret; every POST is checked with Standard Webhooks' own Java library (signature and timestamp), kept, and
 * answered 204, or 400 when it does not verify, or {@link #status} when a test sets another.
 */
final class Receiver implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** One request as received: which application (path), its headers' id, the body's type and data, checked or not. */
    record Received(String path, String webhookId, String type, JsonNode data, boolean verified, String contentType) {
    }

    final List<Received> received = new CopyOnWriteArrayList<>();
    final AtomicInteger status = new AtomicInteger(204);
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final HttpServer server;

    Receiver(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    /** Requests to {@code path} are checked with {@code secret}. */
    void expect(String path, String secret) {
        secrets.put(path, secret);
    }

    List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            String path = exchange.getRequestURI().getPath();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean verified;
            try {
                new Webhook(secrets.getOrDefault(path, "whsec_AAAA")).verify(body, exchange.getRequestHeaders());
                verified = "POST".equals(exchange.getRequestMethod());
            }
            catch (WebhookVerificationException | com.standardwebhooks.exceptions.EmptyWebhookSecretException | RuntimeException e) {
                verified = false;
            }
            JsonNode event = JSON.readTree(body);
            received.add(new Received(path, exchange.getRequestHeaders().getFirst("webhook-id"), event.get("type").asString(),
                    event.get("data"), verified, exchange.getRequestHeaders().getFirst("Content-Type")));
            Thread.sleep(20); // a receiver takes a moment: overlapping deliveries would show in maxInFlight
            exchange.sendResponseHeaders(verified ? status.get() : 400, -1);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finally {
            inFlight.decrementAndGet();
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
