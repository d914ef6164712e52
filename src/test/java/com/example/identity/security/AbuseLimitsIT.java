package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.crypto.Secrets;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.WebClient;
import com.example.identity.token.ApiTokenService;

/**
 * Rate limits with the shipped defaults (20 failed requests per minute): abuse is slowed at once, success
 * is not. Its own context, because it slows 127.0.0.1 on purpose. The login throttle has its own
 * tests ({@code abuse/LoginThrottleIT}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "identity.rate-limit.failures-per-minute=20" })
@ActiveProfiles("test")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AbuseLimitsIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    @Order(1)
    void manyGoodRequestsAreNeverThrottled() {
        var owner = accounts.create("Busy", "busy-" + UUID.randomUUID() + "@example.com", "busy-password-12", Role.DEVELOPER_API);
        String token = tokens.createPersonal(owner.getId(), "busy").value();
        var web = new WebClient(port);
        for (int i = 0; i < 300; i++) {
            assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        }
    }

    @Test
    @Order(2)
    void badBearerTokensAreSlowedAfterTwentyFailures() {
        var web = new WebClient(port);
        for (int i = 0; i < 20; i++) {
            assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + Secrets.randomHex(32)).statusCode())
                    .isEqualTo(401);
        }
        var limited = web.get("/api/userinfo.php", "Authorization", "Bearer " + Secrets.randomHex(32));
        ApiAssertions.assertApiError(limited, 429, "Demasiadas solicitudes, inténtalo más tarde");
        assertThat(limited.headers().firstValue("Retry-After")).isPresent().get()
                .satisfies(v -> assertThat(Integer.parseInt(v)).isBetween(1, 60));
    }

    /**
     * A client id is public: strangers sending wrong secrets for it are slowed by their addresses, and
     * cannot lock the application out; only failures of the authenticated client spend its budget.
     */
    @Test
    @Order(3)
    void onlyTheClientItselfCanSpendTheClientsFailures() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Victim", "https://victim.example/cb");
        Map<String, String> wrongSecret = Map.of("grant_type", "authorization_code", "code", "x", "redirect_uri",
                client.redirectUri(), "client_id", client.clientId(), "client_secret", "wrong");
        var stranger = new WebClient(port);
        for (int i = 0; i < 40; i++) {
            assertThat(stranger.postForm("/oauth/token.php", wrongSecret, "X-Forwarded-For", "203.0.113." + (i % 2 + 1))
                    .statusCode()).isEqualTo(401);
        }
        assertThat(stranger.postForm("/oauth/token.php", wrongSecret, "X-Forwarded-For", "203.0.113.1").statusCode())
                .as("the stranger's address is slowed").isEqualTo(429);

        var dev = new WebClient(port);
        dev.login("dev@example.com", "dev-demo-password");
        var redirect = dev.get("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()
                + "&redirect_uri=https%3A%2F%2Fvictim.example%2Fcb&scope=email&state=s");
        String code = UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams().getFirst("code");
        Map<String, String> good = Map.of("grant_type", "authorization_code", "code", code, "redirect_uri",
                client.redirectUri(), "client_id", client.clientId(), "client_secret", client.clientSecret());
        assertThat(new WebClient(port).postForm("/oauth/token.php", good, "X-Forwarded-For", "198.51.100.1").statusCode())
                .as("the application is not locked out").isEqualTo(200);

        Map<String, String> unknownCode = Map.of("grant_type", "authorization_code", "code", "unknown", "redirect_uri",
                client.redirectUri(), "client_id", client.clientId(), "client_secret", client.clientSecret());
        for (int i = 0; i < 20; i++) {
            assertThat(new WebClient(port).postForm("/oauth/token.php", unknownCode, "X-Forwarded-For", "198.51.100." + (10 + i))
                    .statusCode()).isEqualTo(400);
        }
        assertThat(new WebClient(port).postForm("/oauth/token.php", unknownCode, "X-Forwarded-For", "198.51.100.99")
                .statusCode()).as("the client's own failures, from any address").isEqualTo(429);
    }

    @Test
    @Order(4)
    void wrongClientSecretsAreSlowedAfterTwentyFailures() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Target", "https://target.example/cb");
        Map<String, String> form = Map.of("grant_type", "authorization_code", "code", "x", "redirect_uri",
                client.redirectUri(), "client_id", client.clientId(), "client_secret", "wrong");
        var web = new WebClient(port);
        for (int i = 0; i < 20; i++) {
            assertThat(web.postForm("/oauth/token.php", form).statusCode()).isEqualTo(401);
        }
        var limited = web.postForm("/oauth/token.php", form);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(limited.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(limited.headers().firstValue("Retry-After")).isPresent();
        assertThat(limited.body()).isEqualTo("{\"error\":\"Demasiadas solicitudes, inténtalo más tarde\"}");
    }
}
