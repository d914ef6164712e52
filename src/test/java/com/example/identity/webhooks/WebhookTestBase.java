package com.example.identity.webhooks;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.IdentityApplication;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.consent.Consents;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MovableClock;

/**
 * What the webhook tests share: a receiver on a free port, applications with a webhook to it, people who used them
 * (a consent on record), and a second instance of the service on the same database.
 */
@IntegrationTest
abstract class WebhookTestBase {

    static final String PASSWORD = "correct-password-123";

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    Webhooks webhooks;

    @Autowired
    Consents consents;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MovableClock clock;

    @Autowired
    Environment environment;

    Receiver receiver;
    ConfigurableApplicationContext other;

    @AfterEach
    void stopAll() {
        if (receiver != null) {
            receiver.close();
        }
        if (other != null) {
            other.close();
        }
    }

    /** An application of a new developer, of {@code type}, with a webhook at {@code path} of {@code port}. */
    App newApp(ClientType type, int port, String path) {
        long owner = newUser(Role.DEVELOPER_API);
        return newApp(owner, type, port, path);
    }

    App newApp(long owner, ClientType type, int port, String path) {
        var created = clients.register(owner, "Juego " + path, type == ClientType.WEB ? "https://juego.example/cb" : null,
                List.of(), type);
        String url = webhooks.check("http://127.0.0.1:" + port + path).orElseThrow();
        String secret = webhooks.register(created.clientId(), url);
        if (receiver != null) {
            receiver.expect(path, secret);
        }
        return new App(created.clientId(), owner, path, secret);
    }

    record App(String clientId, long owner, String path, String secret) {
    }

    long newUser(Role role) {
        return accounts.create("Lea", "webhooks-" + UUID.randomUUID() + "@example.com", PASSWORD, role).getId();
    }

    /** A person who has used {@code app}: their consent to it is on record. */
    long userOf(App app) {
        long user = newUser(Role.USER);
        consents.grant(user, app.clientId(), Set.of("openid", "profile"));
        return user;
    }

    long adminId() {
        return accounts.findByEmail("admin@example.com").orElseThrow().getId();
    }

    /** Another instance of the service on this test's database. */
    ConfigurableApplicationContext secondInstance() {
        return new SpringApplicationBuilder(IdentityApplication.class).run("--server.port=0",
                "--spring.profiles.active=test", "--management.server.port=0",
                "--spring.datasource.url=" + environment.getProperty("spring.datasource.url"),
                "--spring.datasource.hikari.maximum-pool-size=4");
    }

    int pending(App app) {
        return jdbc.queryForObject("select count(*) from outbox_messages where message_key like ?", Integer.class,
                "webhook:" + app.clientId() + ":%");
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
