package com.example.identity.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

/**
 * A secret made on a page (a personal token, an application's secret, a one-time password) is in the
 * answer to the POST that made it and nowhere else: not in a later page, and never in the session rows
 * that every instance shares (a flash attribute would put it there, readable by anyone who reads the
 * database or a backup of it).
 */
@IntegrationTest
class SecretsShownOnceIT {

    private static final Pattern TOKEN = Pattern.compile("id=\"new-token\">([0-9a-f]{64})<");
    private static final Pattern CLIENT_ID = Pattern.compile("id=\"client-id\">([^<]+)<");
    private static final Pattern CLIENT_SECRET = Pattern.compile("id=\"client-secret\">([0-9a-f]{64})<");
    private static final Pattern TEMPORARY = Pattern.compile("id=\"temporary-password\">([^<]+)<");

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    JdbcTemplate jdbc;

    private WebClient loggedIn(Role role) {
        String email = role.value() + "-" + UUID.randomUUID() + "@example.com";
        accounts.create("Prueba", email, "secret-shown-once-1", role);
        var web = new WebClient(port);
        web.login(email, "secret-shown-once-1");
        return web;
    }

    private static String shownIn(HttpResponse<String> response, Pattern pattern) {
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-cache, no-store, max-age=0, must-revalidate");
        assertThat(response.headers().firstValue("Location")).isEmpty();
        var matcher = pattern.matcher(response.body());
        assertThat(matcher.find()).as("the secret is in the answer to the POST").isTrue();
        return matcher.group(1);
    }

    /** Every attribute of every stored session, as bytes; a serialized String keeps its UTF-8 bytes. */
    private void assertNoSessionHolds(String secret) {
        byte[] needle = secret.getBytes(StandardCharsets.UTF_8);
        List<byte[]> stored = jdbc.queryForList("select attribute_bytes from spring_session_attributes", byte[].class);
        assertThat(stored).isNotEmpty();
        assertThat(stored).noneMatch(bytes -> indexOf(bytes, needle) >= 0);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void aNewTokenIsInTheAnswerOnlyNeverInTheSession() {
        var web = loggedIn(Role.DEVELOPER_API);
        String csrf = web.csrfFrom(Endpoints.DEVELOPER_DASHBOARD);
        String token = shownIn(web.postForm("/dashboard/tokens/create",
                Map.of("name", "Juego", "scope", "perfil", "_csrf", csrf)), TOKEN);
        assertThat(web.postForm("/dashboard/tokens/create", Map.of("name", "Juego", "_csrf", csrf)).body())
                .contains("data-shown-once=\"/dashboard/developer.php#tokens\"");

        assertNoSessionHolds(token);
        assertThat(web.get(Endpoints.DEVELOPER_DASHBOARD).body()).doesNotContain(token).doesNotContain("new-token");
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode())
                .isEqualTo(200);
    }

    @Test
    void anApplicationsSecretAtRegistrationAndRotationIsInTheAnswerOnly() {
        var web = loggedIn(Role.DEVELOPER_API);
        String csrf = web.csrfFrom(Endpoints.DEVELOPER_DASHBOARD);
        var registered = web.postForm("/dashboard/clients/create",
                Map.of("name", "Sitio", "redirect_uri", "https://sitio.example/cb", "_csrf", csrf));
        String secret = shownIn(registered, CLIENT_SECRET);
        var id = CLIENT_ID.matcher(registered.body());
        assertThat(id.find()).isTrue();
        assertNoSessionHolds(secret);

        String rotated = shownIn(web.postForm("/dashboard/clients/rotate",
                Map.of("client_id", id.group(1), "_csrf", csrf)), CLIENT_SECRET);
        assertThat(rotated).isNotEqualTo(secret);
        assertNoSessionHolds(rotated);
        assertThat(web.get(Endpoints.DEVELOPER_DASHBOARD).body()).doesNotContain(rotated).doesNotContain(secret);

        // a refused registration shows the page again with the field's error (no secret there), whose address
        // becomes the page's own in the browser (a reload is a GET)
        var refused = web.postForm("/dashboard/clients/create",
                Map.of("name", "Sitio", "redirect_uri", "http://evil.example/cb", "_csrf", csrf));
        assertThat(refused.statusCode()).isEqualTo(200);
        assertThat(refused.body()).contains("id=\"client-redirect-error\"")
                .contains("data-shown-once=\"/dashboard/developer.php#clients\"").doesNotContain(secret)
                .doesNotContain(rotated).doesNotContain("id=\"client-secret\"");
    }

    @Test
    void theRegistrationFormTakesLogoutAddressesOnePerLine() {
        var web = loggedIn(Role.DEVELOPER_API);
        String csrf = web.csrfFrom(Endpoints.DEVELOPER_DASHBOARD);
        var registered = web.postForm("/dashboard/clients/create", Map.of("name", "Con salida",
                "redirect_uri", "https://sitio.example/cb",
                "post_logout_redirect_uris", "https://sitio.example/adios\r\n\r\n  https://sitio.example/bye  \n", "_csrf", csrf));
        var id = CLIENT_ID.matcher(registered.body());
        assertThat(id.find()).isTrue();
        assertThat(jdbc.queryForList("select uri from oauth_client_logout_uris where client_id = ? order by uri",
                String.class, id.group(1))).containsExactly("https://sitio.example/adios", "https://sitio.example/bye");
        // and the applications table shows them, one per line
        assertThat(web.get(Endpoints.DEVELOPER_DASHBOARD).body()).contains("<td class=\"client-logout-uris\">"
                + "<code>https://sitio.example/adios</code><br><code>https://sitio.example/bye</code></td>");

        var refused = web.postForm("/dashboard/clients/create", Map.of("name", "Con salida",
                "redirect_uri", "https://sitio.example/cb", "post_logout_redirect_uris", "ftp://sitio.example/bye",
                "_csrf", csrf));
        assertThat(refused.statusCode()).isEqualTo(200);
        assertThat(refused.body()).contains("post_logout_redirect_uri inválido: usa https").contains("ftp://sitio.example/bye");
    }

    @Test
    void onlyAWebApplicationHasASecretToRotateAndARefusedFormKeepsItsType() {
        var web = loggedIn(Role.DEVELOPER_API);
        String csrf = web.csrfFrom(Endpoints.DEVELOPER_DASHBOARD);
        var launcher = CLIENT_ID.matcher(web.postForm("/dashboard/clients/create", Map.of("name", "Lanzador",
                "type", "nativa", "redirect_uri", "http://127.0.0.1/cb", "_csrf", csrf)).body());
        assertThat(launcher.find()).isTrue();
        var console = CLIENT_ID.matcher(web.postForm("/dashboard/clients/create", Map.of("name", "Consola",
                "type", "dispositivo", "_csrf", csrf)).body());
        assertThat(console.find()).isTrue();
        var site = CLIENT_ID.matcher(web.postForm("/dashboard/clients/create", Map.of("name", "Sitio",
                "redirect_uri", "https://sitio.example/cb", "_csrf", csrf)).body());
        assertThat(site.find()).isTrue();

        String page = web.get(Endpoints.DEVELOPER_DASHBOARD).body();
        assertThat(rowOf(page, launcher.group(1))).doesNotContain("Rotar secreto").contains("Cómo conectar");
        assertThat(rowOf(page, console.group(1))).doesNotContain("Rotar secreto").contains("Cómo conectar");
        assertThat(rowOf(page, site.group(1))).contains("Rotar secreto");
        // the web site's example uses the web application, the only one with a secret
        assertThat(page).contains("client-id: " + site.group(1)).doesNotContain("client-id: " + launcher.group(1))
                .doesNotContain("client-id: " + console.group(1));

        // a console's registration refused (no name): the form comes back with dispositivo still chosen
        var refused = web.postForm("/dashboard/clients/create", Map.of("name", "", "type", "dispositivo", "_csrf", csrf));
        assertThat(refused.statusCode()).isEqualTo(200);
        String again = refused.body();
        assertThat(again).contains("<option value=\"dispositivo\" selected=\"selected\">")
                .contains("<option value=\"web\">").contains("<option value=\"nativa\">");
    }

    /** The applications table's row of {@code clientId}, as HTML. */
    private static String rowOf(String page, String clientId) {
        int start = page.indexOf("<tr data-client-id=\"" + clientId + "\">");
        assertThat(start).as("row of " + clientId).isGreaterThanOrEqualTo(0);
        return page.substring(start, page.indexOf("</tr>", start));
    }

    @Test
    void aOneTimePasswordMadeByAnAdminIsInTheAnswerOnly() {
        var admin = loggedIn(Role.ADMIN);
        String csrf = admin.csrfFrom(Endpoints.ADMIN_DASHBOARD);
        String email = "nuevo-" + UUID.randomUUID() + "@example.com";
        String created = shownIn(admin.postForm("/dashboard/admin/users/create",
                Map.of("primer_nombre", "Nuevo", "correo", email, "rol", "user", "_csrf", csrf)), TEMPORARY);
        assertNoSessionHolds(created);

        long id = accounts.findByEmail(email).orElseThrow().getId();
        var reset = admin.postForm("/dashboard/admin/users/reset-password", Map.of("id", String.valueOf(id), "_csrf", csrf));
        String again = shownIn(reset, TEMPORARY);
        assertThat(reset.body()).contains("con contraseña restablecida")
                .contains("data-shown-once=\"/dashboard/admin.php#users\"");
        assertThat(again).isNotEqualTo(created);
        assertNoSessionHolds(again);
        assertThat(admin.get(Endpoints.ADMIN_DASHBOARD).body()).doesNotContain(again).doesNotContain("temporary-password\"");
    }
}
