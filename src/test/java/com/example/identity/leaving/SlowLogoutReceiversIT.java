package com.example.identity.leaving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.StubbornReceiver;
import com.example.identity.support.WebClient;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

/**
 * Issue 39, findings 1 and 2, for back-channel logout: three applications logged in through one session, whose logout
 * URIs are a receiver that never answers, one that answers 200 and trickles its body, and a healthy one. When the
 * session ends, the healthy application gets its logout token while the hung receiver still holds its connection, and
 * so does the next person's; the trickling one is delivered at its status; the hung one is cut at
 * {@code identity.outbound.timeout} (10 s) and its token kept for a later attempt.
 */
class SlowLogoutReceiversIT extends LeavingTestBase {

    StubbornReceiver hung;
    StubbornReceiver slow;
    HttpServer healthy;
    final List<String> sids = new CopyOnWriteArrayList<>();
    final List<ClientService.NewCredentials> apps = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (ClientService.NewCredentials app : apps) {
            // what is left for these receivers would be retried for a day in the shared database
            jdbc.update("delete from outbox_messages where message_key like ?", "client:" + app.clientId() + ":%");
        }
        if (hung != null) {
            hung.close();
        }
        if (slow != null) {
            slow.close();
        }
        if (healthy != null) {
            healthy.stop(0);
        }
    }

    ClientService.NewCredentials app(int port) {
        var app = clients.register(adminId(), "Receptor " + port, "https://receptor.example/cb", List.of(),
                ClientType.WEB, "http://127.0.0.1:" + port + "/bcl");
        clients.setFirstParty(new Caller(adminId(), true), app.clientId(), true);
        apps.add(app);
        return app;
    }

    /** Logs {@code user} in to each of {@code at} through their session here; the session's sid. */
    static String signedInTo(User user, ClientService.NewCredentials... at) throws Exception {
        String sid = null;
        for (ClientService.NewCredentials app : at) {
            sid = SignedJWT.parse(tokens(user.browser(), app, "openid").get("id_token").asString()).getJWTClaimsSet()
                    .getStringClaim("sid");
        }
        return sid;
    }

    static void logOut(WebClient web) {
        assertThat(web.postForm("/logout", java.util.Map.of("_csrf", web.csrfFrom("/cuenta/"))).statusCode())
                .isEqualTo(302);
    }

    int pending(ClientService.NewCredentials app) {
        return jdbc.queryForObject("select count(*) from outbox_messages where message_key like ?", Integer.class,
                "client:" + app.clientId() + ":%");
    }

    @Test
    void aSlowBodyAndAHungReceiverDoNotHoldBackAHealthyOne() throws Exception {
        hung = new StubbornReceiver(StubbornReceiver.Mode.HUNG);
        slow = new StubbornReceiver(StubbornReceiver.Mode.SLOW_BODY);
        healthy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        healthy.createContext("/bcl", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            try {
                sids.add(SignedJWT.parse(URLDecoder.decode(body.substring("logout_token=".length()),
                        StandardCharsets.UTF_8)).getJWTClaimsSet().getStringClaim("sid"));
            }
            catch (java.text.ParseException e) {
                sids.add("unreadable");
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        healthy.start();
        var hungApp = app(hung.port);
        var slowApp = app(slow.port);
        var healthyApp = app(healthy.getAddress().getPort());

        User first = newLoggedInUser(Role.USER);
        String firstSid = signedInTo(first, hungApp, slowApp, healthyApp);
        User second = newLoggedInUser(Role.USER);
        String secondSid = signedInTo(second, hungApp, healthyApp);

        logOut(first.browser());
        await("the hung receiver holds a logout token").atMost(Duration.ofSeconds(20))
                .until(() -> hung.requests.size() == 1);
        logOut(second.browser());

        await("the healthy receiver gets both").atMost(Duration.ofSeconds(9)).until(() -> sids.size() == 2);
        assertThat(hung.cut).as("while the hung receiver still held its first connection").isEmpty();
        assertThat(sids).containsExactlyInAnyOrder(firstSid, secondSid);

        // the trickling receiver: delivered at its 200, the connection closed with the body still coming
        await().atMost(Duration.ofSeconds(10)).until(() -> pending(slowApp) == 0 && slow.cut.size() == 1);
        assertThat(slow.requests).hasSize(1);
        assertThat(slow.requests.get(0).header("Content-Type")).isEqualTo("application/x-www-form-urlencoded");

        // the hung receiver: both cut at the deadline, both tokens kept for later
        await().atMost(Duration.ofSeconds(30)).until(() -> hung.cut.size() >= 2 && jdbc.queryForObject(
                "select count(*) from outbox_messages where message_key like ? and attempts >= 1", Integer.class,
                "client:" + hungApp.clientId() + ":%") == 2);
        assertThat(hung.heldMillis(0)).as("held until the deadline, not much longer").isBetween(9_000L, 20_000L);
        assertThat(jdbc.queryForList("select last_error from outbox_messages where message_key = ?", String.class,
                "client:" + hungApp.clientId() + ":user:" + first.id())).containsExactly("DeadlineExceededException");
        assertThat(pending(healthyApp)).isZero();
    }
}
