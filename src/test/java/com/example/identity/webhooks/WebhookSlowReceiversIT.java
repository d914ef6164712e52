package com.example.identity.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.example.identity.account.Role;
import com.example.identity.client.ClientType;
import com.example.identity.support.StubbornReceiver;

/**
 * Issue 39, findings 1 and 2: a receiver that answers 200 and then trickles its body, and one that never answers,
 * beside a healthy one. The healthy one's events arrive while the hung one still holds its connection (they do not
 * wait for each other); the trickling one is delivered at its status, its connection closed with the body still
 * coming; the hung one is cut at {@code identity.outbound.timeout} (10 s), the attempt on record as "sin respuesta",
 * and tried again later.
 */
class WebhookSlowReceiversIT extends WebhookTestBase {

    StubbornReceiver hung;
    StubbornReceiver slow;
    final List<App> apps = new java.util.ArrayList<>();

    @AfterEach
    void stopStubborn() throws Exception {
        for (App app : apps) {
            // what is left for these receivers would be retried for a day in the shared database
            jdbc.update("delete from outbox_messages where message_key like ?", "webhook:" + app.clientId() + ":%");
        }
        if (hung != null) {
            hung.close();
        }
        if (slow != null) {
            slow.close();
        }
    }

    /** A person who used every one of {@code used}. */
    long userOfAll(App... used) {
        long user = newUser(Role.USER);
        for (App app : used) {
            consents.grant(user, app.clientId(), Set.of("openid", "profile"));
        }
        return user;
    }

    @Test
    void aSlowBodyAndAHungReceiverDoNotHoldBackAHealthyOne() throws Exception {
        hung = new StubbornReceiver(StubbornReceiver.Mode.HUNG);
        slow = new StubbornReceiver(StubbornReceiver.Mode.SLOW_BODY);
        int port = freePort();
        receiver = new Receiver(port);
        App hungApp = newApp(ClientType.WEB, hung.port, "/colgado");
        App slowApp = newApp(ClientType.WEB, slow.port, "/lento");
        App healthyApp = newApp(ClientType.WEB, port, "/sano");
        apps.addAll(List.of(hungApp, slowApp, healthyApp));
        long first = userOfAll(hungApp, slowApp, healthyApp);

        accounts.rename(first, "Primera");
        await("the hung receiver holds a delivery").atMost(Duration.ofSeconds(20)).until(() -> hung.requests.size() == 1);
        // more people, more events, while it holds it: to the hung one (their own keys) and to the healthy one
        long second = userOfAll(hungApp, healthyApp);
        long third = userOfAll(hungApp, healthyApp);
        accounts.rename(second, "Segunda");
        accounts.rename(third, "Tercera");

        await("the healthy receiver gets every event").atMost(Duration.ofSeconds(9))
                .until(() -> receiver.at("/sano").size() == 3);
        assertThat(hung.cut).as("all of them while the hung receiver still held its first connection").isEmpty();
        assertThat(receiver.at("/sano")).allMatch(Receiver.Received::verified)
                .extracting(r -> r.data().get("primer_nombre").asString())
                .containsExactlyInAnyOrder("Primera", "Segunda", "Tercera");

        // the trickling receiver: delivered at its 200, the connection closed with most of a megabyte to come
        await().atMost(Duration.ofSeconds(10)).until(() -> pending(slowApp) == 0 && slow.cut.size() == 1);
        assertThat(slow.requests).hasSize(1);
        assertThat(webhooks.overview(List.of(slowApp.clientId()), 10).get(slowApp.clientId()).attempts())
                .extracting(Webhooks.Attempt::outcome, Webhooks.Attempt::httpStatus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("entregado", 200));

        // the hung receiver: every connection cut at the deadline, each attempt on record, the events kept for later
        // the three people's events were there at once (at most identity.outbox.per-receiver, 4, per receiver)
        await().atMost(Duration.ofSeconds(30)).until(() -> hung.cut.size() >= 3
                && webhooks.overview(List.of(hungApp.clientId()), 10).get(hungApp.clientId()).attempts().size() >= 3);
        assertThat(hung.heldMillis(0)).as("held until the deadline, not much longer")
                .isBetween(9_000L, 20_000L);
        assertThat(webhooks.overview(List.of(hungApp.clientId()), 10).get(hungApp.clientId()).attempts())
                .allMatch(a -> a.outcome().equals("sin respuesta") && a.httpStatus() == null);
        assertThat(jdbc.queryForList("select last_error from outbox_messages where message_key = ?", String.class,
                "webhook:" + hungApp.clientId() + ":user:" + first)).containsExactly("DeadlineExceededException");
        assertThat(pending(hungApp)).isEqualTo(3);
    }
}
