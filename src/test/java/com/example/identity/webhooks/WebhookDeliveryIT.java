package com.example.identity.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountDeletion;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.client.ClientType;
import com.example.identity.support.WebClient;

/**
 * The account's events reach the applications the person used, signed per Standard Webhooks (each checked by the
 * receiver with the specification's Java library): in order, once per event with two instances running, after a
 * restart when the receiver was down at first, in commit order when changes race.
 */
class WebhookDeliveryIT extends WebhookTestBase {

    @Autowired
    AccountAdministration administration;

    @Autowired
    AccountDeletion deletion;

    @Autowired
    ApiTokenService tokens;

    @LocalServerPort
    int port;

    @Test
    void aPersonsChangesReachTheApplicationsTheyUsedInOrder() throws Exception {
        int port = freePort();
        receiver = new Receiver(port);
        App web = newApp(ClientType.WEB, port, "/web");
        App server = newApp(web.owner(), ClientType.SERVER, port, "/servidor"); // same owner: hears the web's people
        App unused = newApp(ClientType.WEB, port, "/ajena"); // nobody used it
        long user = userOf(web);
        String correo = accounts.findById(user).orElseThrow().getCorreo();
        Caller admin = new Caller(adminId(), true);

        accounts.rename(user, "Renombrada");
        assertThat(administration.disable(admin, user)).isTrue();
        assertThat(administration.enable(user)).isTrue();
        assertThat(deletion.delete(user, admin)).isEqualTo(AccountDeletion.Outcome.DELETED);

        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.at("/web").size() >= 4 && receiver.at("/servidor").size() >= 4);
        for (String path : List.of("/web", "/servidor")) {
            List<Receiver.Received> got = receiver.at(path);
            assertThat(got).hasSize(4).allMatch(Receiver.Received::verified)
                    .allMatch(r -> "application/json".equals(r.contentType()));
            assertThat(got).extracting(Receiver.Received::type).containsExactly("usuario.actualizado",
                    "usuario.desactivado", "usuario.actualizado", "usuario.eliminado");
            assertThat(got.get(0).data().toString()).isEqualTo("{\"id\":" + user + ",\"sub\":\"user:" + user
                    + "\",\"primer_nombre\":\"Renombrada\",\"correo\":\"" + correo + "\",\"rol\":\"user\",\"activo\":true}");
            assertThat(got.get(1).data().get("activo").asBoolean()).isFalse();
            assertThat(got.get(2).data().get("activo").asBoolean()).isTrue();
            assertThat(got.get(3).data().toString()).isEqualTo("{\"id\":" + user + ",\"sub\":\"user:" + user + "\"}");
            assertThat(got).extracting(Receiver.Received::webhookId).doesNotHaveDuplicates()
                    .allMatch(id -> id.matches("msg_[0-9a-f]{32}"));
        }
        assertThat(receiver.at("/ajena")).isEmpty();
        // every attempt on record for the dashboard (written once the receiver has answered)
        await().atMost(Duration.ofSeconds(5)).until(() -> pending(web) == 0 && pending(server) == 0);
        assertThat(webhooks.overview(List.of(web.clientId()), 10).get(web.clientId()).attempts())
                .extracting(Webhooks.Attempt::eventType, Webhooks.Attempt::outcome, Webhooks.Attempt::httpStatus)
                .first().isEqualTo(org.assertj.core.groups.Tuple.tuple("usuario.eliminado", "entregado", 204));
        assertThat(pending(web)).isZero();
        assertThat(pending(unused)).isZero();
    }

    @Test
    void aReceiverDownAtFirstGetsTheEventAfterTheInstanceThatMadeItStopped() throws Exception {
        int port = freePort();
        App app = newApp(ClientType.WEB, port, "/hook");
        long user = userOf(app);
        other = secondInstance();
        other.getBean(AccountService.class).rename(user, "Desde la otra");

        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.queryForObject("select count(*) from outbox_messages "
                + "where message_key = ? and attempts >= 1", Integer.class, "webhook:" + app.clientId() + ":user:" + user) == 1);
        other.close(); // the instance that saw the change stops; the message stays in the database
        other = null;
        assertThat(jdbc.queryForObject("select last_error from outbox_messages where message_key = ?", String.class,
                "webhook:" + app.clientId() + ":user:" + user)).isEqualTo("ConnectException");
        receiver = new Receiver(port);
        receiver.expect("/hook", app.secret());

        clock.advance(Duration.ofMinutes(2)); // past the back-off so far (10 s, 20 s, 40 s), within the 5 minutes a receiver allows
        await().atMost(Duration.ofSeconds(15)).until(() -> pending(app) == 0);
        assertThat(receiver.received).hasSize(1);
        Receiver.Received got = receiver.received.get(0);
        assertThat(got.verified()).isTrue();
        assertThat(got.type()).isEqualTo("usuario.actualizado");
        assertThat(got.data().get("primer_nombre").asString()).isEqualTo("Desde la otra");
        // the failed attempts and the delivery, each on record; the same webhook-id throughout
        List<Webhooks.Attempt> attempts = webhooks.overview(List.of(app.clientId()), 10).get(app.clientId()).attempts();
        assertThat(attempts.get(0).outcome()).isEqualTo("entregado");
        assertThat(attempts.get(0).attempt()).isGreaterThan(1);
        assertThat(attempts.subList(1, attempts.size())).allMatch(a -> a.outcome().equals("sin respuesta"))
                .allMatch(a -> a.httpStatus() == null);
        assertThat(attempts).extracting(Webhooks.Attempt::webhookId).containsOnly(got.webhookId());
    }

    @Test
    void twoRunningInstancesSendEachEventOnce() throws Exception {
        int port = freePort();
        receiver = new Receiver(port);
        App app = newApp(ClientType.WEB, port, "/hook");
        other = secondInstance();
        AccountService otherAccounts = other.getBean(AccountService.class);
        for (int i = 0; i < 6; i++) {
            long user = userOf(app);
            (i % 2 == 0 ? accounts : otherAccounts).rename(user, "Nombre " + i);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.received.size() >= 6 && pending(app) == 0);
        // both instances kept polling meanwhile: still one each
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> receiver.received.size() == 6);
        assertThat(receiver.received).allMatch(Receiver.Received::verified)
                .extracting(Receiver.Received::webhookId).doesNotHaveDuplicates();
        assertThat(receiver.received).extracting(r -> r.data().get("primer_nombre").asString())
                .containsExactlyInAnyOrder("Nombre 0", "Nombre 1", "Nombre 2", "Nombre 3", "Nombre 4", "Nombre 5");
    }

    @Test
    void racingChangesOfOnePersonArriveInTheOrderTheyCommitted() throws Exception {
        int port = freePort();
        receiver = new Receiver(port);
        App app = newApp(ClientType.WEB, port, "/hook");
        long user = userOf(app);
        other = secondInstance();
        AccountService otherAccounts = other.getBean(AccountService.class);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<?>> renames = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String name = "Nombre " + i;
            AccountService on = i % 2 == 0 ? accounts : otherAccounts; // both instances, at once
            renames.add(pool.submit(() -> on.rename(user, name)));
        }
        int committed = 0;
        for (Future<?> rename : renames) {
            try {
                rename.get();
                committed++;
            }
            catch (java.util.concurrent.ExecutionException lost) {
                // a lock wait that gave up: that change rolled back, and so did its event
            }
        }
        pool.shutdown();
        assertThat(committed).isGreaterThan(1);
        final int expected = committed;
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.received.size() >= expected && pending(app) == 0);
        assertThat(receiver.received).hasSize(expected).allMatch(Receiver.Received::verified);
        // one at a time, and the last one says what the account says now
        assertThat(receiver.maxInFlight.get()).isEqualTo(1);
        String now = accounts.findById(user).orElseThrow().getPrimerNombre();
        assertThat(receiver.received.get(expected - 1).data().get("primer_nombre").asString()).isEqualTo(now);
        assertThat(receiver.received).extracting(r -> r.data().get("primer_nombre").asString()).doesNotHaveDuplicates();
    }

    @Test
    void deletingTheOwnerTakesTheWebhookAndItsDeliveriesWithTheApplications() throws Exception {
        int port = freePort();
        receiver = new Receiver(port);
        App app = newApp(ClientType.SERVER, port, "/propia");
        assertThat(webhooks.sendTest(new Caller(app.owner(), false), app.clientId())).isTrue();
        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.at("/propia").size() == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> jdbc.queryForObject(
                "select count(*) from webhook_deliveries where client_id = ?", Integer.class, app.clientId()) == 1);
        // another developer's application is not theirs to test
        assertThat(webhooks.sendTest(new Caller(newUser(com.example.identity.account.Role.DEVELOPER_API), false),
                app.clientId())).isFalse();

        assertThat(deletion.delete(app.owner(), new Caller(app.owner(), false))).isEqualTo(AccountDeletion.Outcome.DELETED);
        assertThat(jdbc.queryForObject("select count(*) from webhook_endpoints where client_id = ?", Integer.class,
                app.clientId())).isZero();
        assertThat(jdbc.queryForObject("select count(*) from webhook_deliveries where client_id = ?", Integer.class,
                app.clientId())).isZero();
        assertThat(webhooks.sendTest(new Caller(adminId(), true), app.clientId())).isFalse();
    }

    /**
     * Issue 39.5: the recipients are the applications to which the person has a grant in force. Withdrawing the
     * consent at /cuenta/aplicaciones (which revokes the application's tokens) and revoking an application's last
     * token each end that application's events; an application still holding a live grant goes on hearing them.
     */
    @Test
    void withdrawingTheConsentOrRevokingTheLastGrantEndsTheApplicationsEvents() throws Exception {
        int receiverPort = freePort();
        receiver = new Receiver(receiverPort);
        App withdrawn = newApp(ClientType.WEB, receiverPort, "/retirada");
        App revoked = newApp(ClientType.WEB, receiverPort, "/revocada");
        App kept = newApp(ClientType.WEB, receiverPort, "/sigue");
        String correo = "consentimiento-" + UUID.randomUUID() + "@example.com";
        long user = accounts.create("Lea", correo, PASSWORD, Role.USER).getId();
        consents.grant(user, withdrawn.clientId(), Set.of("openid", "profile"));
        consents.grant(user, kept.clientId(), Set.of("openid", "profile"));
        for (App app : List.of(withdrawn, revoked)) {
            tokens.issueForClient(user, app.clientId(), Set.of("openid", "profile"), "autorizacion-" + UUID.randomUUID(),
                    Duration.ofHours(1));
        }
        accounts.rename(user, "Antes");
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.at("/retirada").size() == 1
                && receiver.at("/revocada").size() == 1 && receiver.at("/sigue").size() == 1);

        var web = new WebClient(port);
        assertThat(web.login(correo, PASSWORD).statusCode()).isEqualTo(302);
        assertThat(WebClient.location(web.postForm("/cuenta/aplicaciones/retirar", Map.of("client_id",
                withdrawn.clientId(), "_csrf", web.csrfFrom("/cuenta/aplicaciones"))))).isEqualTo("/cuenta/aplicaciones?retirada");
        assertThat(tokens.revokeByClientAndUser(revoked.clientId(), user)).isEqualTo(1);
        accounts.rename(user, "Despues");

        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.at("/sigue").size() == 2);
        assertThat(receiver.at("/sigue").get(1).data().get("primer_nombre").asString()).isEqualTo("Despues");
        assertThat(pending(withdrawn)).isZero();
        assertThat(pending(revoked)).isZero();
        assertThat(receiver.at("/retirada")).hasSize(1);
        assertThat(receiver.at("/revocada")).hasSize(1);
    }
}
