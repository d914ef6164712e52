package com.example.identity.outbound;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.consent.Consents;
import com.example.identity.outbox.Outbox;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.StubbornReceiver;
import com.example.identity.support.WebClient;
import com.example.identity.webhooks.Webhooks;

/**
 * Issue 39, finding 3, at delivery time, as production runs it ({@code identity.outbound.allow-loopback} off): a
 * receiver's name that resolves to a forbidden address when the delivery happens (DNS changed since the registration,
 * or was made to) gets nothing, not even a connection, for a webhook and for a logout token; the attempt counts as a
 * failed one (the webhook's on the dashboard as "dirección prohibida") and is tried again under the outbox's
 * back-off, not forever. Names are resolved by this test ({@link ReceiverClient.Resolver}): {@code rebind.example}
 * answers 127.0.0.1, where a receiver of this test counts connections. At registration, the loopback is refused
 * for both URIs, with each endpoint's message.
 */
@IntegrationTest
@TestPropertySource(properties = "identity.outbound.allow-loopback=false")
@Import(DeliveryAddressCheckIT.TestNames.class)
class DeliveryAddressCheckIT {

    /** A resolver for this context: {@code rebind.example} is this machine now; other names are not known. */
    @TestConfiguration
    static class TestNames {
        @Bean
        ReceiverClient.Resolver resolver() {
            return host -> {
                if (host.equals("rebind.example")) {
                    return new InetAddress[] { InetAddress.getByName("127.0.0.1") };
                }
                if (host.matches("[0-9.]+|[0-9a-fA-F:]+")) {
                    return InetAddress.getAllByName(host); // a literal: no lookup
                }
                throw new UnknownHostException(host);
            };
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    Webhooks webhooks;

    @Autowired
    Consents consents;

    @Autowired
    Outbox outbox;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    JdbcTemplate jdbc;

    StubbornReceiver receiver;

    @AfterEach
    void stop() throws Exception {
        if (receiver != null) {
            receiver.close();
        }
    }

    long developer() {
        return accounts.create("Dev", "address-check-" + UUID.randomUUID() + "@example.com", "correct-password-123",
                Role.DEVELOPER_API).getId();
    }

    int attempts(String keyPattern) {
        return jdbc.queryForObject("select coalesce(max(attempts), 0) from outbox_messages where message_key like ?",
                Integer.class, keyPattern);
    }

    @Test
    void aWebhookWhoseNameNowResolvesToThisMachineGetsNothing() throws Exception {
        receiver = new StubbornReceiver(StubbornReceiver.Mode.HUNG);
        long owner = developer();
        var app = clients.register(owner, "Juego", "https://juego.example/cb", List.of(), ClientType.WEB);
        // accepted at registration: a name is checked when it is resolved
        String url = webhooks.check("https://rebind.example:" + receiver.port + "/hook").orElseThrow();
        webhooks.register(app.clientId(), url);
        long user = accounts.create("Lea", "address-check-" + UUID.randomUUID() + "@example.com", "correct-password-123",
                Role.USER).getId();
        consents.grant(user, app.clientId(), Set.of("openid"));

        accounts.rename(user, "Otro nombre");

        String key = "webhook:" + app.clientId() + ":user:" + user;
        await().atMost(Duration.ofSeconds(20)).until(() -> attempts(key) >= 1);
        assertThat(jdbc.queryForObject("select last_error from outbox_messages where message_key = ?", String.class, key))
                .isEqualTo("ForbiddenAddressException");
        assertThat(webhooks.overview(List.of(app.clientId()), 10).get(app.clientId()).attempts())
                .extracting(Webhooks.Attempt::outcome, Webhooks.Attempt::httpStatus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("dirección prohibida", null));
        assertThat(receiver.connections).as("not even a connection").hasValue(0);
        // tried again later under the back-off (10 s, doubling, for 24 hours), not at every poll
        assertThat(jdbc.queryForObject("select due_at from outbox_messages where message_key = ?", java.sql.Timestamp.class,
                key).toInstant()).isAfter(java.time.Instant.now().plusSeconds(5));
        jdbc.update("delete from outbox_messages where message_key = ?", key);
    }

    @Test
    void aLogoutTokenWhoseNameNowResolvesToThisMachineGetsNothing() throws Exception {
        receiver = new StubbornReceiver(StubbornReceiver.Mode.HUNG);
        long owner = developer();
        var app = clients.register(owner, "Sitio", "https://sitio.example/cb", List.of(), ClientType.WEB,
                "https://rebind.example:" + receiver.port + "/bcl");
        String key = "client:" + app.clientId() + ":user:" + owner;
        // a session of the owner's ended: the token queued as backchannel/SessionEndedListener queues it
        transactions.executeWithoutResult(status -> outbox.enqueue("backchannel-logout", key,
                "{\"iss\":\"http://localhost:8080\",\"client_id\":\"" + app.clientId() + "\",\"uri\":\"https://rebind.example:"
                        + receiver.port + "/bcl\",\"sub\":\"user:" + owner + "\",\"sid\":\"" + "s".repeat(22) + "\"}"));

        await().atMost(Duration.ofSeconds(20)).until(() -> attempts(key) >= 1);
        assertThat(jdbc.queryForObject("select last_error from outbox_messages where message_key = ?", String.class, key))
                .isEqualTo("ForbiddenAddressException");
        assertThat(receiver.connections).as("not even a connection").hasValue(0);
        jdbc.update("delete from outbox_messages where message_key = ?", key);
    }

    @Test
    void theLoopbackIsRefusedAtRegistrationForBothAddresses() {
        long developer = developer();
        String gestion = "Bearer " + tokens.createPersonal(developer, "ci", TokenScope.GESTION).value();
        WebClient api = new WebClient(port);
        for (String loopback : List.of("https://127.0.0.1:9000/x", "https://localhost/x", "https://[::1]/x",
                "https://127.0.0.2/x")) {
            assertApiError(api.postForm("/api/clients/create.php", Map.of("name", "mal", "redirect_uri",
                    "https://x.example/cb", "webhook_url", loopback), "Authorization", gestion), 400,
                    "webhook_url inválido: no puede apuntar a una dirección local o privada");
            assertApiError(api.postForm("/api/clients/create.php", Map.of("name", "mal", "redirect_uri",
                    "https://x.example/cb", "backchannel_logout_uri", loopback), "Authorization", gestion), 400,
                    "backchannel_logout_uri inválido: no puede apuntar a una dirección local o privada");
        }
        // http to the loopback, which redirect URIs allow: not for a receiver
        assertApiError(api.postForm("/api/clients/create.php", Map.of("name", "mal", "redirect_uri",
                "https://x.example/cb", "backchannel_logout_uri", "http://127.0.0.1:9000/bcl"), "Authorization", gestion),
                400, "backchannel_logout_uri inválido: no puede apuntar a una dirección local o privada");
        assertApiError(api.postForm("/api/clients/create.php", Map.of("name", "mal", "redirect_uri",
                "https://x.example/cb", "webhook_url", "http://127.0.0.1:9000/h"), "Authorization", gestion),
                400, "webhook_url inválido: usa https");
        assertThat(jdbc.queryForObject("select count(*) from oauth_clients where owner_id = ?", Integer.class, developer))
                .isZero();
    }
}
