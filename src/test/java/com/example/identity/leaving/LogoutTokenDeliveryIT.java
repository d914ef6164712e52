package com.example.identity.leaving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import com.example.identity.IdentityApplication;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

/**
 * The delivery of logout tokens from the outbox, with a receiver of this test's own (a JDK HTTP server) and a second
 * instance of the service on the same database: a token exactly as Back-Channel Logout 1.0 §2.4 says; a receiver
 * that is down at first gets it after the instance that saw the session end has stopped and the back-off has passed
 * (on the test's {@link MovableClock}, no sleeping); two running instances send each logout once.
 */
class LogoutTokenDeliveryIT extends LeavingTestBase {

    @Autowired
    MovableClock clock;

    @Autowired
    Environment environment;

    final List<Map<String, String>> received = new CopyOnWriteArrayList<>();
    HttpServer receiver;
    ConfigurableApplicationContext other;

    @AfterEach
    void stop() {
        if (receiver != null) {
            receiver.stop(0);
        }
        if (other != null) {
            other.close();
        }
    }

    /** Starts the receiver on {@code port}: every POST is kept (its content type and body), answered 200. */
    void startReceiver(int port) throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        receiver.createContext("/bcl", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(Map.of("method", exchange.getRequestMethod(),
                    "type", String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")), "body", body));
            exchange.getResponseHeaders().add("Cache-Control", "no-store");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
    }

    /** Another instance of the service on this test's database, with the same issuer. */
    ConfigurableApplicationContext secondInstance() {
        return new SpringApplicationBuilder(IdentityApplication.class).run("--server.port=0",
                "--spring.profiles.active=test", "--management.server.port=0",
                "--spring.datasource.url=" + environment.getProperty("spring.datasource.url"),
                "--identity.issuer=" + ISSUER, "--spring.datasource.hikari.maximum-pool-size=4");
    }

    static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    ClientService.NewCredentials clientTelling(int port) {
        return clients.register(adminId(), "Receptor", "https://receptor.example/cb", List.of(), ClientType.WEB,
                "http://127.0.0.1:" + port + "/bcl");
    }

    /** Logs {@code user} in at {@code base} and the application in through that session; the id_token's sid. */
    static String signIn(WebClient web, ClientService.NewCredentials app) throws Exception {
        String idToken = tokens(web, app, "openid").get("id_token").asString();
        return SignedJWT.parse(idToken).getJWTClaimsSet().getStringClaim("sid");
    }

    static void logOut(WebClient web) {
        assertThat(web.postForm("/logout", Map.of("_csrf", web.csrfFrom("/cuenta/"))).statusCode()).isEqualTo(302);
    }

    static String tokenOf(Map<String, String> request) {
        assertThat(request.get("body")).startsWith("logout_token=");
        return URLDecoder.decode(request.get("body").substring("logout_token=".length()), StandardCharsets.UTF_8);
    }

    @Test
    void aReceiverDownAtFirstGetsTheLogoutTokenAfterARestartAndTheBackOff() throws Exception {
        int receiverPort = freePort();
        var app = clientTelling(receiverPort);
        clients.setFirstParty(new com.example.identity.account.Caller(adminId(), true), app.clientId(), true);
        User user = newLoggedInUser(Role.USER);
        other = secondInstance();
        // the person uses the other instance, which sees the session end
        WebClient web = new WebClient(port(other));
        assertThat(web.login(user.email(), PASSWORD).statusCode()).isEqualTo(302);
        String sid = signIn(web, app);
        assertThat(sid).matches("[A-Za-z0-9_-]{22}");
        logOut(web);

        String key = "client:" + app.clientId() + ":user:" + user.id(); // one person's tokens to one application
        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.queryForObject(
                "select count(*) from outbox_messages where message_key = ? and attempts >= 1", Integer.class, key) == 1);
        other.close(); // the instance stops; the message stays in the database
        other = null;
        startReceiver(receiverPort);
        assertThat(received).isEmpty();
        assertThat(jdbc.queryForObject("select last_error from outbox_messages where message_key = ?", String.class, key))
                .isEqualTo("ConnectException");

        clock.advance(Duration.ofMinutes(2)); // past the back-off of any attempt so far (10 s, 20 s, 40 s)
        await().atMost(Duration.ofSeconds(15)).until(() -> received.size() >= 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(
                "select count(*) from outbox_messages where message_key = ?", Integer.class, key) == 0);
        assertThat(received).hasSize(1);
        assertThat(received.get(0).get("method")).isEqualTo("POST");
        assertThat(received.get(0).get("type")).isEqualTo("application/x-www-form-urlencoded");

        // Back-Channel Logout 1.0 §2.4: signed with the service's key, typ logout+jwt, the claims and no nonce
        SignedJWT token = SignedJWT.parse(tokenOf(received.get(0)));
        assertThat(token.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(token.getHeader().getType()).isEqualTo(new JOSEObjectType("logout+jwt"));
        JWKSet keys = JWKSet.load(URI.create(ISSUER + "/oauth/jwks.json").toURL());
        RSAKey key2 = (RSAKey) keys.getKeyByKeyId(token.getHeader().getKeyID());
        assertThat(token.verify(new RSASSAVerifier(key2))).isTrue();
        JWTClaimsSet claims = token.getJWTClaimsSet();
        assertThat(claims.getIssuer()).isEqualTo(ISSUER);
        assertThat(claims.getAudience()).containsExactly(app.clientId());
        assertThat(claims.getSubject()).isEqualTo("user:" + user.id());
        assertThat(claims.getStringClaim("sid")).isEqualTo(sid);
        assertThat(claims.getJWTID()).isNotBlank();
        assertThat(claims.getIssueTime()).isNotNull();
        assertThat(claims.getExpirationTime()).isAfter(claims.getIssueTime());
        assertThat(claims.getJSONObjectClaim("events")).containsOnlyKeys("http://schemas.openid.net/event/backchannel-logout");
        assertThat(claims.getJSONObjectClaim("events").get("http://schemas.openid.net/event/backchannel-logout"))
                .isEqualTo(Map.of());
        assertThat(claims.getClaims()).doesNotContainKey("nonce");
    }

    @Test
    void twoRunningInstancesSendEachLogoutOnce() throws Exception {
        int receiverPort = freePort();
        startReceiver(receiverPort);
        var app = clientTelling(receiverPort);
        clients.setFirstParty(new com.example.identity.account.Caller(adminId(), true), app.clientId(), true);
        other = secondInstance();
        List<String> sids = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            User user = newLoggedInUser(Role.USER);
            // half the sessions on each instance
            WebClient web = i % 2 == 0 ? user.browser() : new WebClient(port(other));
            if (i % 2 == 1) {
                assertThat(web.login(user.email(), PASSWORD).statusCode()).isEqualTo(302);
            }
            sids.add(signIn(web, app));
            logOut(web);
        }
        String keys = "client:" + app.clientId() + ":%";
        await().atMost(Duration.ofSeconds(20)).until(() -> received.size() >= 4 && jdbc.queryForObject(
                "select count(*) from outbox_messages where message_key like ?", Integer.class, keys) == 0);
        // both instances kept polling meanwhile: still one each
        assertThat(received).hasSize(4);
        List<String> told = new java.util.ArrayList<>();
        for (Map<String, String> request : received) {
            told.add(SignedJWT.parse(tokenOf(request)).getJWTClaimsSet().getStringClaim("sid"));
        }
        assertThat(told).containsExactlyInAnyOrderElementsOf(sids);
    }
}
