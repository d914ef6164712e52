package com.example.identity.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.support.ApiAssertions;

/** Admin pages: users with a one-time password, roles, disable (sessions end, tokens refused), enable. */
@IntegrationTest
class AdminIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    org.springframework.jdbc.core.JdbcTemplate jdbc;

    WebClient admin() {
        var web = new WebClient(port);
        String email = "adm-" + UUID.randomUUID() + "@example.com";
        accounts.create("Adm", email, "admin-password-1", Role.ADMIN);
        web.login(email, "admin-password-1");
        return web;
    }

    @Test
    void adminCreatesUserWhoLogsInWithTheTemporaryPassword() {
        var web = admin();
        String csrf = web.csrfFrom("/dashboard/admin.php");
        String email = "nuevo-" + UUID.randomUUID() + "@example.com";

        var created = web.postForm("/dashboard/admin/users/create", Map.of("primer_nombre", "Nuevo", "correo", email,
                "rol", "developer_api", "_csrf", csrf));
        assertThat(created.statusCode()).isEqualTo(200);
        var page = created.body();
        var matcher = Pattern.compile("id=\"temporary-password\">([^<]+)<").matcher(page);
        assertThat(matcher.find()).isTrue();
        String password = matcher.group(1);
        assertThat(web.get("/dashboard/admin.php").body()).doesNotContain(password);

        var newcomer = new WebClient(port);
        var login = newcomer.login(email, password);
        assertThat(WebClient.location(login)).isEqualTo("/dashboard/developer.php");

        // the one-time password allows nothing but choosing a new one
        var gated = newcomer.get("/dashboard/developer.php");
        assertThat(gated.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(gated)).isEqualTo("/cuenta/contrasena?redirect=%2Fdashboard%2Fdeveloper.php");
        var authorize = newcomer.get("/oauth/authorize.php?response_type=code&client_id=demo-app"
                + "&redirect_uri=http%3A%2F%2Flocalhost%3A9000%2Fcallback");
        assertThat(WebClient.location(authorize)).startsWith("/cuenta/contrasena");
        ApiAssertions.assertApiError(newcomer.get("/api/tokens/list.php"), 403, "Permiso denegado");

        String newcomerCsrf = newcomer.csrfFrom("/cuenta/contrasena?redirect=%2Fdashboard%2Fdeveloper.php");
        var tooShort = newcomer.postForm("/cuenta/contrasena", Map.of("actual", password, "nueva", "short",
                "repetida", "short", "_csrf", newcomerCsrf));
        assertThat(tooShort.body()).contains("al menos 12 caracteres");
        var changed = newcomer.postForm("/cuenta/contrasena", Map.of("actual", password,
                "nueva", "my-own-password-2026", "repetida", "my-own-password-2026", "redirect", "/dashboard/developer.php",
                "_csrf", newcomerCsrf));
        assertThat(WebClient.location(changed)).isEqualTo("/dashboard/developer.php");
        assertThat(newcomer.get("/dashboard/developer.php").statusCode()).isEqualTo(200);
        assertThat(newcomer.get("/api/tokens/list.php").statusCode()).isEqualTo(200);

        assertThat(WebClient.location(new WebClient(port).login(email, password))).startsWith("/login/?error");
        assertThat(WebClient.location(new WebClient(port).login(email, "my-own-password-2026")))
                .isEqualTo("/dashboard/developer.php");
    }

    @Test
    void userChangesOwnPasswordProvingTheCurrentOne() {
        String email = "pw-" + UUID.randomUUID() + "@example.com";
        accounts.create("Pablo", email, "first-password-1", Role.USER);
        var web = new WebClient(port);
        web.login(email, "first-password-1");
        String csrf = web.csrfFrom("/cuenta/contrasena");

        var wrong = web.postForm("/cuenta/contrasena", Map.of("actual", "not-it-at-all", "nueva", "second-password-2",
                "repetida", "second-password-2", "_csrf", csrf));
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(wrong.body()).contains("La contraseña actual no es correcta");
        var mismatch = web.postForm("/cuenta/contrasena", Map.of("actual", "first-password-1", "nueva", "second-password-2",
                "repetida", "second-password-3", "_csrf", csrf));
        assertThat(mismatch.statusCode()).isEqualTo(400);
        assertThat(mismatch.body()).contains("no coinciden");
        var ok = web.postForm("/cuenta/contrasena", Map.of("actual", "first-password-1", "nueva", "second-password-2",
                "repetida", "second-password-2", "_csrf", csrf));
        assertThat(WebClient.location(ok)).isEqualTo("/cuenta/contrasena?hecho");
        assertThat(WebClient.location(new WebClient(port).login(email, "second-password-2"))).isEqualTo("/");
    }

    @Test
    void disablingEndsSessionsAndRefusesTokensEnablingRestoresLogin() {
        String email = "victim-" + UUID.randomUUID() + "@example.com";
        var victim = accounts.create("Víctor", email, "victim-password-1", Role.DEVELOPER_API);
        String token = tokens.createPersonal(victim.getId(), "t").value();
        var victimSession = new WebClient(port);
        victimSession.login(email, "victim-password-1");
        assertThat(victimSession.get("/dashboard/developer.php").statusCode()).isEqualTo(200);
        var victimAtAnApplication = new WebClient(port);
        victimAtAnApplication.login(email, "victim-password-1");
        String authorize = "/oauth/authorize.php?response_type=code&client_id=demo-app"
                + "&redirect_uri=http%3A%2F%2Flocalhost%3A9000%2Fcallback";
        assertThat(WebClient.location(victimAtAnApplication.get(authorize))).startsWith("http://localhost:9000/callback?code=");

        var web = admin();
        var disabled = web.postForm("/dashboard/admin/users/disable", Map.of("id", String.valueOf(victim.getId()),
                "_csrf", web.csrfFrom("/dashboard/admin.php")));
        assertThat(disabled.statusCode()).isEqualTo(302);

        var after = victimSession.get("/dashboard/developer.php");
        assertThat(after.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(after)).startsWith("/login/");
        var authorizeAfter = victimAtAnApplication.get(authorize);
        assertThat(authorizeAfter.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(authorizeAfter)).as("no code for an ended session").startsWith("/login/");
        ApiAssertions.assertApiError(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + token), 401,
                "Token inválido o revocado");
        assertThat(WebClient.location(new WebClient(port).login(email, "victim-password-1"))).startsWith("/login/?error");

        web.postForm("/dashboard/admin/users/enable", Map.of("id", String.valueOf(victim.getId()),
                "_csrf", web.csrfFrom("/dashboard/admin.php")));
        assertThat(WebClient.location(new WebClient(port).login(email, "victim-password-1")))
                .isEqualTo("/dashboard/developer.php");
    }

    @Test
    void roleChangeTakesEffectAtOnce() {
        String email = "role-" + UUID.randomUUID() + "@example.com";
        var user = accounts.create("Rol", email, "role-password-12", Role.DEVELOPER_API);
        var session = new WebClient(port);
        session.login(email, "role-password-12");
        assertThat(session.get("/dashboard/developer.php").statusCode()).isEqualTo(200);

        var web = admin();
        web.postForm("/dashboard/admin/users/role", Map.of("id", String.valueOf(user.getId()), "rol", "user",
                "_csrf", web.csrfFrom("/dashboard/admin.php")));

        assertThat(session.get("/dashboard/developer.php").statusCode()).isEqualTo(302);
        var again = new WebClient(port);
        again.login(email, "role-password-12");
        assertThat(again.get("/dashboard/developer.php", "Accept", "text/html").statusCode()).isEqualTo(403);
    }

    @Test
    void demotionToUserRevokesPersonalTokensButNotTheApplicationsOnes() {
        String email = "demoted-" + UUID.randomUUID() + "@example.com";
        var user = accounts.create("Demo", email, "demoted-password-1", Role.DEVELOPER_API);
        String personal = tokens.createPersonal(user.getId(), "game build").value();
        String issued = tokens.issueForClient(user.getId(), "demo-app", java.util.Set.of("openid"), "auth-" + UUID.randomUUID(),
                java.time.Duration.ofHours(1));
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + personal).statusCode())
                .isEqualTo(200);

        var web = admin();
        web.postForm("/dashboard/admin/users/role", Map.of("id", String.valueOf(user.getId()), "rol", "user",
                "_csrf", web.csrfFrom("/dashboard/admin.php")));

        ApiAssertions.assertApiError(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + personal),
                401, "Token inválido o revocado");
        assertThat(tokens.listForOwner(user.getId())).filteredOn(t -> t.getName().equals("game build"))
                .allSatisfy(t -> assertThat(t.isRevoked()).isTrue());
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + issued).statusCode())
                .as("a login at a web site is the site's, not a developer's token").isEqualTo(200);
    }

    @Test
    void changingThePasswordEndsEveryOtherSessionAndKeepsThisOne() {
        String email = "sessions-" + UUID.randomUUID() + "@example.com";
        accounts.create("Sesiones", email, "first-password-1", Role.USER);
        var here = new WebClient(port);
        here.login(email, "first-password-1");
        var phone = new WebClient(port);
        phone.login(email, "first-password-1");
        assertThat(phone.get("/cuenta/contrasena").statusCode()).isEqualTo(200);

        var changed = here.postForm("/cuenta/contrasena", Map.of("actual", "first-password-1", "nueva", "second-password-2",
                "repetida", "second-password-2", "_csrf", here.csrfFrom("/cuenta/contrasena")));
        assertThat(WebClient.location(changed)).isEqualTo("/cuenta/contrasena?hecho");

        assertThat(here.get("/cuenta/contrasena").statusCode()).as("the session that changed it").isEqualTo(200);
        var ended = phone.get("/cuenta/contrasena");
        assertThat(ended.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(ended)).isEqualTo("/login/?redirect=%2Fcuenta%2Fcontrasena");
    }

    @Test
    void adminResetsAPasswordEndingSessionsWithAOneTimePasswordThatExpires() {
        String email = "reset-" + UUID.randomUUID() + "@example.com";
        var user = accounts.create("Reseteo", email, "forgotten-password-1", Role.USER);
        var session = new WebClient(port);
        session.login(email, "forgotten-password-1");
        assertThat(session.get("/cuenta/contrasena").statusCode()).isEqualTo(200);

        var web = admin();
        var reset = web.postForm("/dashboard/admin/users/reset-password", Map.of("id", String.valueOf(user.getId()),
                "_csrf", web.csrfFrom("/dashboard/admin.php")));
        assertThat(reset.statusCode()).isEqualTo(200);
        String page = reset.body();
        var matcher = Pattern.compile("id=\"temporary-password\">([^<]+)<").matcher(page);
        assertThat(matcher.find()).isTrue();
        String oneTime = matcher.group(1);
        assertThat(page).contains("con contraseña restablecida").containsPattern(
                "id=\"temporary-password-expiry\">\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC<");

        assertThat(WebClient.location(session.get("/cuenta/contrasena"))).isEqualTo("/login/?redirect=%2Fcuenta%2Fcontrasena");
        assertThat(WebClient.location(new WebClient(port).login(email, "forgotten-password-1"))).isEqualTo("/login/?error=1");
        var newcomer = new WebClient(port);
        assertThat(WebClient.location(newcomer.login(email, oneTime))).isEqualTo("/");
        assertThat(WebClient.location(newcomer.get("/dashboard/developer.php"))).startsWith("/cuenta/contrasena");

        // seven days later (identity.one-time-password.ttl) the one-time password no longer logs in
        jdbc.update("update users set one_time_password_expires_at = ? where id = ?",
                java.sql.Timestamp.from(java.time.Instant.now().minusSeconds(1)), user.getId());
        assertThat(WebClient.location(new WebClient(port).login(email, oneTime))).isEqualTo("/login/?error=1");
    }

    @Test
    void oneTimePasswordsOfNewAccountsExpireAfterSevenDays() {
        var web = admin();
        String email = "expiring-" + UUID.randomUUID() + "@example.com";
        web.postForm("/dashboard/admin/users/create", Map.of("primer_nombre", "Caduca", "correo", email, "rol", "user",
                "_csrf", web.csrfFrom("/dashboard/admin.php")));
        var expiresAt = jdbc.queryForObject("select one_time_password_expires_at from users where correo = ?",
                java.sql.Timestamp.class, email).toInstant();
        assertThat(expiresAt).isBetween(java.time.Instant.now().plus(java.time.Duration.ofDays(7)).minusSeconds(120),
                java.time.Instant.now().plus(java.time.Duration.ofDays(7)));
    }

    @Autowired
    com.example.identity.client.ClientService clients;

    @Test
    void theApplicationsTableShowsEachTypeAndItsLogoutAddresses() {
        long owner = accounts.create("Dueña", "own-" + UUID.randomUUID() + "@example.com", "owner-password-1",
                Role.DEVELOPER_API).getId();
        var site = clients.register(owner, "Sitio tipo", "https://tipo.example/cb",
                java.util.List.of("https://tipo.example/fuera"), com.example.identity.client.ClientType.WEB);
        var launcher = clients.register(owner, "Lanzador tipo", "http://127.0.0.1/cb", java.util.List.of(),
                com.example.identity.client.ClientType.NATIVE);
        var console = clients.register(owner, "Consola tipo", null, java.util.List.of(),
                com.example.identity.client.ClientType.DEVICE);
        var web = admin();

        String page = web.get("/dashboard/admin.php?q=" + "tipo").body();
        assertThat(page).contains("<th>Tipo</th><th>redirect_uri</th><th class=\"long\">post_logout_redirect_uri</th>");
        assertThat(rowOf(page, site.clientId())).contains("<td class=\"client-type\">web</td>")
                .contains("<td class=\"client-logout-uris\"><code>https://tipo.example/fuera</code></td>");
        assertThat(rowOf(page, launcher.clientId())).contains("<td class=\"client-type\">nativa</td>")
                .contains("<td><code>http://127.0.0.1/cb</code></td>")
                .contains("<td class=\"client-logout-uris\">—</td>");
        assertThat(rowOf(page, console.clientId())).contains("<td class=\"client-type\">dispositivo</td>")
                .contains("<td><code>—</code></td>");
    }

    /** The admin page's applications table row of {@code clientId}, as HTML. */
    private static String rowOf(String page, String clientId) {
        int table = page.indexOf("id=\"all-clients-table\"");
        int start = page.indexOf("<tr data-client-id=\"" + clientId + "\">", table);
        assertThat(start).as("row of " + clientId).isGreaterThan(table);
        return page.substring(start, page.indexOf("</tr>", start));
    }

    @Test
    void developerCannotOpenAdminPages() {
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        assertThat(web.get("/dashboard/admin.php", "Accept", "text/html").statusCode()).isEqualTo(403);
        String csrf = web.csrfFrom("/dashboard/developer.php");
        assertThat(web.postForm("/dashboard/admin/users/disable", Map.of("id", "1", "_csrf", csrf)).statusCode())
                .isEqualTo(403);
    }

    @Test
    void everyDashboardFormCarriesTheCsrfToken() {
        var web = admin();
        for (String page : new String[] { "/dashboard/admin.php", "/dashboard/developer.php" }) {
            String html = web.get(page).body();
            // the search form (GET, changes nothing) needs no token
            int forms = html.split("<form", -1).length - 1 - (html.split("<form method=\"get\"", -1).length - 1);
            int tokens = html.split("name=\"_csrf\"", -1).length - 1;
            assertThat(forms).isPositive();
            assertThat(tokens).as(page).isEqualTo(forms);
            assertThat(html).doesNotContainPattern("<form[^>]*method=\"get\"[^>]*(revoke|disable|rotate)");
        }
    }
}
