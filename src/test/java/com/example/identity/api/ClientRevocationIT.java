package com.example.identity.api;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static com.example.identity.support.ApiAssertions.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/**
 * Revoking an application kills every token issued to it (issue 13 §2, decisions §6): the live ones, the
 * ones already cached by {@code /api/userinfo.php}, and one minted by a code exchange that raced with the
 * revocation (it checked the client before the revocation and stored its token after).
 */
@IntegrationTest
class ClientRevocationIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    ApiTokenService tokens;

    long ownerId;

    ClientService.NewCredentials newClient() {
        ownerId = accounts.create("Rita", "rev-" + UUID.randomUUID() + "@example.com", "a-password-for-tests",
                Role.DEVELOPER_API).getId();
        return com.example.identity.support.FirstParty.register(clients, ownerId, "Juego", "https://juego.example/cb/" + UUID.randomUUID());
    }

    long playerId;

    /** A logged-in player, whose id is kept in {@link #playerId}. */
    WebClient player() {
        String email = "player-" + UUID.randomUUID() + "@example.com";
        playerId = accounts.create("Pablo", email, "a-password-for-tests", Role.USER).getId();
        var web = new WebClient(port);
        assertThat(web.login(email, "a-password-for-tests").statusCode()).isEqualTo(302);
        return web;
    }

    String code(WebClient player, ClientService.NewCredentials client) {
        var response = player.get("/oauth/authorize.php?" + WebClient.encode(Map.of("response_type", "code",
                "client_id", client.clientId(), "redirect_uri", client.redirectUri(), "scope", "email")));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(302);
        return UriComponentsBuilder.fromUriString(WebClient.location(response)).build().getQueryParams().getFirst("code");
    }

    HttpResponse<String> exchange(ClientService.NewCredentials client, String code) {
        return new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(client, code));
    }

    int userinfo(String token) {
        return new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode();
    }

    @Test
    void revokingThroughTheApiKillsLiveAndCachedTokens() {
        var client = newClient();
        var player = player();
        String used = json(exchange(client, code(player, client))).get("access_token").asString();
        String unused = json(exchange(client, code(player, client))).get("access_token").asString();
        assertThat(userinfo(used)).isEqualTo(200); // now in the token cache

        String gestion = "Bearer " + tokens.createPersonal(ownerId, "ci", TokenScope.GESTION).value();
        var revoked = new WebClient(port).postForm("/api/clients/revoke.php", Map.of("client_id", client.clientId()),
                "Authorization", gestion);
        assertThat(revoked.body()).isEqualTo("{\"ok\":true}");

        for (String token : List.of(used, unused)) {
            assertApiError(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + token), 401,
                    "Token inválido o revocado");
        }
        // and the tokens are marked revoked, not only refused
        assertThat(tokens.listForOwner(playerId)).hasSize(2).allMatch(t -> t.isRevoked());
    }

    @Test
    void aTokenStoredAfterTheRevocationIsRefused() {
        var client = newClient();
        playerId = accounts.create("Pía", "late-" + UUID.randomUUID() + "@example.com", "a-password-for-tests",
                Role.USER).getId();
        clients.revoke(client.clientId());

        // what a code exchange that checked the client just before the revocation stores just after it
        String late = tokens.issueForClient(playerId, client.clientId(), Set.of("email"), "a-" + UUID.randomUUID(),
                Duration.ofHours(1));

        assertApiError(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + late), 401,
                "Token inválido o revocado");
    }

    @Test
    void exchangesRacingWithTheRevocationLeaveNoUsableToken() throws Exception {
        var client = newClient();
        var player = player();
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            codes.add(code(player, client));
        }
        ExecutorService pool = Executors.newFixedThreadPool(9);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> exchanges = new ArrayList<>();
        try {
            for (String code : codes) {
                exchanges.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return exchange(client, code);
                }));
            }
            Future<Boolean> revocation = pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                Thread.sleep(5);
                return clients.revoke(client.clientId());
            });
            start.countDown();
            assertThat(revocation.get(60, TimeUnit.SECONDS)).isTrue();
            List<String> issued = new ArrayList<>();
            for (var exchange : exchanges) {
                var response = exchange.get(60, TimeUnit.SECONDS);
                if (response.statusCode() == 200) {
                    issued.add(json(response).get("access_token").asString());
                }
                else {
                    assertThat(response.statusCode()).isEqualTo(401);
                    assertThat(json(response).get("error").asString()).isEqualTo("client_revoked");
                }
            }
            for (String token : issued) {
                assertThat(userinfo(token)).as("token issued around the revocation").isEqualTo(401);
            }
        }
        finally {
            pool.shutdownNow();
        }
    }
}
