package com.example.identity.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

/**
 * Probes on the service's port, the actuator on its own port, and the business metrics of decisions §14
 * moving after a real flow.
 */
@IntegrationTest
class OperationsIT {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    ApplicationContext context;

    @Test
    void probesAnswerStatusOnlyOnTheServicePortWithoutSessions() {
        var web = new WebClient(port);
        for (String probe : new String[] { "/livez", "/readyz" }) {
            var response = web.get(probe);
            assertThat(response.statusCode()).as(probe).isEqualTo(200);
            assertThat(response.body()).as(probe).isEqualTo("{\"status\":\"UP\"}");
            assertThat(response.headers().firstValue("Set-Cookie")).as(probe).isEmpty();
            assertThat(response.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'none'; frame-ancestors 'none'");
        }
        // the actuator is not on the service's port
        assertThat(web.get("/actuator/health").statusCode()).isEqualTo(404);
        assertThat(web.get("/actuator/prometheus").statusCode()).isEqualTo(404);
    }

    @Test
    void readinessGoesDownWhenTheApplicationRefusesTraffic() {
        var web = new WebClient(port);
        AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
        try {
            var response = web.get("/readyz");
            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.body()).isEqualTo("{\"status\":\"OUT_OF_SERVICE\"}");
            assertThat(web.get("/livez").statusCode()).isEqualTo(200);
        }
        finally {
            AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
        }
        assertThat(web.get("/readyz").statusCode()).isEqualTo(200);
    }

    @Test
    void managementPortShowsHealthDetailsInfoAndMetrics() {
        var management = new WebClient("http://127.0.0.1:" + managementPort);
        var health = ApiAssertions.json(management.get("/actuator/health"));
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("db").get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("db").get("details").get("database").asString()).isNotBlank();

        var info = ApiAssertions.json(management.get("/actuator/info"));
        assertThat(info.get("build").get("version").asString()).isEqualTo("0.1.0-SNAPSHOT");
        assertThat(info.get("build").get("artifact").asString()).isEqualTo("identity-service");
        assertThat(info.get("git").get("commit").get("id").asString()).matches("[0-9a-f]{7,}");

        var metrics = ApiAssertions.json(management.get("/actuator/metrics"));
        assertThat(metrics.get("names").toString()).contains("identity.logins", "identity.token.requests",
                "identity.userinfo.requests", "identity.revocations", "http.server.requests", "jvm.memory.used",
                "hikaricp.connections.active");
    }

    @Test
    void businessCountersMoveAfterAFlow() {
        var management = new WebClient("http://127.0.0.1:" + managementPort);
        String before = scrape(management);

        String email = "ops-" + UUID.randomUUID() + "@example.com";
        accounts.create("Olga", email, "ops-password-1234", Role.DEVELOPER_API);
        long owner = accounts.findByEmail(email).orElseThrow().getId();
        var client = com.example.identity.support.FirstParty.register(clients, owner, "Ops", "https://ops.example/cb");
        var web = new WebClient(port);
        web.login(email, "wrong-password-1234");
        assertThat(web.login(email, "ops-password-1234").statusCode()).isEqualTo(302);
        String csrf = web.csrfFrom("/dashboard/developer.php");
        var created = ApiAssertions.json(web.postForm("/api/tokens/create.php", Map.of("name", "ops", "_csrf", csrf)));
        String token = created.get("token").asString();
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        assertThat(web.get("/api/userinfo.php").statusCode()).isEqualTo(401);
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + "0".repeat(64)).statusCode()).isEqualTo(401);
        var redirect = web.get("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()
                + "&redirect_uri=https%3A%2F%2Fops.example%2Fcb&scope=openid%20email&state=st&nonce=nn");
        String code = UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams().getFirst("code");
        Map<String, String> form = Map.of("grant_type", "authorization_code", "code", code, "redirect_uri",
                client.redirectUri(), "client_id", client.clientId(), "client_secret", client.clientSecret());
        assertThat(web.postForm("/oauth/token.php", form).statusCode()).isEqualTo(200);
        assertThat(web.postForm("/oauth/token.php", form).statusCode()).isEqualTo(400); // reuse: revokes
        assertThat(web.postForm("/oauth/token.php", Map.of("grant_type", "password")).statusCode()).isEqualTo(400);
        long tokenId = -1;
        for (var listed : ApiAssertions.json(web.get("/api/tokens/list.php")).get("tokens")) {
            if (listed.get("name").asString().equals("ops")) {
                tokenId = listed.get("id").asLong();
            }
        }
        assertThat(web.postForm("/api/tokens/revoke.php", Map.of("id", String.valueOf(tokenId), "_csrf", csrf))
                .statusCode()).isEqualTo(200);

        String after = scrape(management);
        assertMoved(before, after, "identity_logins_total{outcome=\"success\"}", 1);
        assertMoved(before, after, "identity_logins_total{outcome=\"failure\"}", 1);
        assertMoved(before, after, "identity_userinfo_requests_total{endpoint=\"/api/userinfo.php\",outcome=\"success\"}", 1);
        assertMoved(before, after, "identity_userinfo_requests_total{endpoint=\"/api/userinfo.php\",outcome=\"missing_token\"}", 1);
        assertMoved(before, after, "identity_userinfo_requests_total{endpoint=\"/api/userinfo.php\",outcome=\"invalid_token\"}", 1);
        assertMoved(before, after, "identity_token_requests_total{grant_type=\"authorization_code\",outcome=\"success\"}", 1);
        assertMoved(before, after, "identity_token_requests_total{grant_type=\"authorization_code\",outcome=\"invalid_request\"}", 1);
        assertMoved(before, after, "identity_token_requests_total{grant_type=\"other\",outcome=\"invalid_request\"}", 1);
        assertMoved(before, after, "identity_revocations_total{kind=\"code_reuse\"}", 1);
        assertMoved(before, after, "identity_revocations_total{kind=\"api_token\"}", 1);
        assertMoved(before, after, "identity_code_exchange_seconds_count{outcome=\"success\"}", 1);
        assertMoved(before, after, "identity_jwt_signature_seconds_count", 1);
        // two logins of this test (the other tests of the JVM may hash too)
        assertThat(value(after, "identity_password_hash_seconds_count{operation=\"verify\"}")
                - value(before, "identity_password_hash_seconds_count{operation=\"verify\"}")).isGreaterThanOrEqualTo(2);
        assertThat(after).contains("http_server_requests_seconds_count", "jvm_memory_used_bytes", "hikaricp_connections");
    }

    private static String scrape(WebClient management) {
        HttpResponse<String> response = management.get("/actuator/prometheus");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static void assertMoved(String before, String after, String series, double by) {
        assertThat(value(after, series) - value(before, series)).as(series).isEqualTo(by);
    }

    static double value(String scrape, String series) {
        return scrape.lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .orElse(0.0);
    }
}
