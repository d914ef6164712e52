package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

/** Each audited action leaves a line with actor, address, time and subject, and no secret. */
@IntegrationTest
class AuditTrailIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    JdbcTemplate jdbc;

    Map<String, Object> last(String event, String needle) {
        return jdbc.queryForList("select * from audit_events where event = ? order by id desc", event).stream()
                .filter(row -> String.valueOf(row.get("actor")).contains(needle) || String.valueOf(row.get("subject")).contains(needle))
                .findFirst().orElseThrow(() -> new AssertionError("no " + event + " about " + needle));
    }

    @Test
    void loginsTokensAndApplicationsAreAudited() {
        String email = "audit-" + UUID.randomUUID() + "@example.com";
        accounts.create("Audi", email, "audit-password-1", Role.DEVELOPER_API);
        var web = new WebClient(port);
        web.login(email, "wrong-password-here");
        web.login(email, "audit-password-1");
        String csrf = web.csrfFrom("/dashboard/developer.php");
        String token = ApiAssertions.json(web.postForm("/api/tokens/create.php", Map.of("name", "aud", "_csrf", csrf)))
                .get("token").asString();
        var tokenList = ApiAssertions.json(web.get("/api/tokens/list.php")).get("tokens");
        long tokenId = tokenList.get(0).get("id").asLong();
        web.postForm("/api/tokens/revoke.php", Map.of("id", String.valueOf(tokenId), "_csrf", csrf));
        var client = ApiAssertions.json(web.postForm("/api/clients/create.php", Map.of("name", "Aud", "redirect_uri",
                "https://aud.example/cb", "_csrf", csrf))).get("client");
        String clientId = client.get("client_id").asString();
        web.postForm("/dashboard/clients/rotate", Map.of("client_id", clientId, "_csrf", csrf));
        web.postForm("/api/clients/revoke.php", Map.of("client_id", clientId, "_csrf", csrf));

        assertThat(last("LOGIN_FAILED", email)).containsEntry("address", "127.0.0.1");
        assertThat(last("LOGIN_SUCCEEDED", email)).containsEntry("address", "127.0.0.1");
        assertThat(last("TOKEN_CREATED", "token #" + tokenId)).containsEntry("actor", email);
        assertThat(last("TOKEN_REVOKED", "token #" + tokenId)).containsEntry("actor", email);
        assertThat(last("CLIENT_CREATED", clientId)).containsEntry("actor", email);
        assertThat(last("CLIENT_SECRET_ROTATED", clientId)).containsEntry("actor", email);
        assertThat(last("CLIENT_REVOKED", clientId)).containsEntry("actor", email);
        assertThat(last("LOGIN_SUCCEEDED", email).get("occurred_at")).isNotNull();

        String everything = jdbc.queryForList("select * from audit_events").toString();
        assertThat(everything).doesNotContain(token).doesNotContain(client.get("client_secret").asString())
                .doesNotContain("audit-password-1").doesNotContain("wrong-password-here");
    }

    @Test
    void passwordTypedInTheEmailFieldNeverReachesTheTrail() {
        new WebClient(port).login("my secret passphrase", "x");
        assertThat(jdbc.queryForList("select actor from audit_events", String.class)).doesNotContain("my secret passphrase");
    }

    @Test
    void adminsReadTheTrailNewestFirstOthersCannot() {
        var admin = new WebClient(port);
        admin.login("admin@example.com", "admin-demo-password");
        var page = admin.get("/dashboard/admin/audit.php");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Registro de auditoría").contains("Inicio de sesión");

        var dev = new WebClient(port);
        dev.login("dev@example.com", "dev-demo-password");
        assertThat(dev.get("/dashboard/admin/audit.php", "Accept", "text/html").statusCode()).isEqualTo(403);
    }
}
