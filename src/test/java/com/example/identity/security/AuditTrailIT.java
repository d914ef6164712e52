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
import com.example.identity.support.AuditPages;
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
        // passwords people type in the e-mail field, some with an @ in them
        String[] typed = { "my secret passphrase", "hunter2@Secret", "Tr0ub4dor&3@x", "p@ss:w0rd!" };
        for (String password : typed) {
            new WebClient(port).login(password, "x");
        }
        var actors = jdbc.queryForList("select actor from audit_events", String.class);
        var admin = new WebClient(port);
        admin.login("admin@example.com", "admin-demo-password");
        String page = AuditPages.trailUntil(admin, "(no es un correo)");
        for (String password : typed) {
            assertThat(actors).doesNotContain(password, password.toLowerCase(java.util.Locale.ROOT));
            assertThat(page.toLowerCase(java.util.Locale.ROOT)).doesNotContain(password.toLowerCase(java.util.Locale.ROOT))
                    .doesNotContain(org.springframework.web.util.HtmlUtils.htmlEscape(password).toLowerCase(java.util.Locale.ROOT));
        }
        assertThat(page).contains("(no es un correo)");
    }

    @Test
    void adminActionsAreAuditedWithActorAndSubject() {
        String adminEmail = "auditor-" + UUID.randomUUID() + "@example.com";
        accounts.create("Auditor", adminEmail, "auditor-password-1", Role.ADMIN);
        var admin = new WebClient(port);
        admin.login(adminEmail, "auditor-password-1");
        String csrf = admin.csrfFrom("/dashboard/admin.php");

        String email = "subject-" + UUID.randomUUID() + "@example.com";
        admin.postForm("/dashboard/admin/users/create", Map.of("primer_nombre", "Sujeto", "correo", email, "rol",
                "developer_api", "_csrf", csrf));
        long id = accounts.findByEmail(email).orElseThrow().getId();
        String who = "usuario #" + id + " " + email;
        admin.postForm("/dashboard/admin/users/role", Map.of("id", String.valueOf(id), "rol", "user", "_csrf", csrf));
        admin.postForm("/dashboard/admin/users/disable", Map.of("id", String.valueOf(id), "_csrf", csrf));
        admin.postForm("/dashboard/admin/users/enable", Map.of("id", String.valueOf(id), "_csrf", csrf));
        admin.postForm("/dashboard/admin/users/reset-password", Map.of("id", String.valueOf(id), "_csrf", csrf));

        long devId = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var developer = new WebClient(port);
        developer.login("dev@example.com", "dev-demo-password");
        String clientId = ApiAssertions.json(developer.postForm("/api/clients/create.php", Map.of("name", "Ajena",
                "redirect_uri", "https://ajena.example/cb", "_csrf", developer.csrfFrom("/dashboard/developer.php"))))
                .get("client").get("client_id").asString();
        admin.postForm("/dashboard/clients/revoke", Map.of("client_id", clientId, "_csrf", csrf));

        assertThat(last("USER_CREATED", who)).containsEntry("actor", adminEmail).containsEntry("subject", who);
        assertThat(last("ROLE_CHANGED", who)).containsEntry("actor", adminEmail)
                .containsEntry("subject", who + ": developer_api → user");
        assertThat(last("USER_DISABLED", who)).containsEntry("actor", adminEmail).containsEntry("subject", who);
        assertThat(last("USER_ENABLED", who)).containsEntry("actor", adminEmail).containsEntry("subject", who);
        assertThat(last("PASSWORD_RESET", who)).containsEntry("actor", adminEmail).containsEntry("subject", who);
        assertThat(last("CLIENT_REVOKED_BY_ADMIN", clientId)).containsEntry("actor", adminEmail)
                .containsEntry("subject", "aplicación " + clientId + " de usuario #" + devId);
        assertThat(AuditPages.trailUntil(admin, "Rol cambiado")).contains("Rol cambiado")
                .contains("Aplicación revocada por un admin").contains("Contraseña restablecida por un admin");
    }

    @Test
    void adminsReadTheTrailNewestFirstOthersCannot() {
        var admin = new WebClient(port);
        admin.login("admin@example.com", "admin-demo-password");
        var page = admin.get("/dashboard/admin/audit.php");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Registro de auditoría");
        assertThat(AuditPages.trailUntil(admin, "Inicio de sesión")).contains("Inicio de sesión");

        var dev = new WebClient(port);
        dev.login("dev@example.com", "dev-demo-password");
        assertThat(dev.get("/dashboard/admin/audit.php", "Accept", "text/html").statusCode()).isEqualTo(403);
    }
}
