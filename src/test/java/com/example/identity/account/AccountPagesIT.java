package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.audit.AuditEvent;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;

/**
 * The account pages over HTTP (decisions §17): {@code /cuenta/} and the open sessions of
 * {@code /cuenta/seguridad}, each with the device and address it was opened from, ended one at a time or
 * all the others at once, each audited; session ids never appear in the page. The name is changed at
 * {@code /cuenta/} with the rule of every name here, audited, and cached tokens answer with it at once.
 */
@IntegrationTest
class AccountPagesIT {

    static final String FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
    static final String IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 "
            + "(KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    JdbcTemplate jdbc;

    String email;

    /** A browser of its own, logged in as {@link #email} with {@code agent}, from {@code address}. */
    WebClient browser(String agent, String address) {
        var web = new WebClient(port);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("username", email);
        form.put("password", "correct-password-123");
        form.put("_csrf", web.csrfFrom("/login/"));
        HttpResponse<String> login = web.postForm("/login/", form, "User-Agent", agent, "X-Forwarded-For", address);
        assertThat(login.statusCode()).isEqualTo(302);
        return web;
    }

    static int count(String html, String needle) {
        return html.split(Pattern.quote(needle), -1).length - 1;
    }

    @Test
    void theAccountPageShowsWhoYouAre() {
        email = "cuenta-" + UUID.randomUUID() + "@example.com";
        accounts.create("Carmen", email, "correct-password-123", Role.USER);
        HttpResponse<String> page = browser(FIREFOX, "192.0.2.10").get("/cuenta/");
        assertThat(page.statusCode()).isEqualTo(200);
        // the header says who is logged in, on the account pages as on every other (site/CurrentUserAdvice)
        assertThat(page.body()).contains("<a class=\"who\" href=\"/cuenta/\" title=\"Mi cuenta\">" + email + "</a>");
        assertThat(browser(FIREFOX, "192.0.2.10").get("/cuenta/seguridad").body()).contains("class=\"who\"");
        assertThat(page.body()).contains("<dd id=\"account-name\">Carmen</dd>")
                .contains("<dd id=\"account-email\">" + email + "</dd>")
                .contains("href=\"/cuenta/seguridad\"").contains("href=\"/cuenta/contrasena\"")
                .contains("href=\"/cuenta/aplicaciones\"");
        assertThat(new WebClient(port).get("/cuenta/").statusCode()).isEqualTo(302);
    }

    @Test
    void aUserSeesTheirSessionsAndEndsThem() {
        email = "sesiones-" + UUID.randomUUID() + "@example.com";
        accounts.create("Sara", email, "correct-password-123", Role.USER);
        WebClient laptop = browser(FIREFOX, "192.0.2.10");
        WebClient phone = browser(IPHONE, "198.51.100.20");
        WebClient tablet = browser(IPHONE, "198.51.100.21");

        HttpResponse<String> page = laptop.get("/cuenta/seguridad");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
        String html = page.body();
        assertThat(count(html, "data-session=")).isEqualTo(3);
        assertThat(html).contains("Firefox en Linux").contains("Safari en iOS").contains("192.0.2.10")
                .contains("198.51.100.20").contains("Esta sesión");
        assertThat(count(html, "data-current=\"true\"")).isEqualTo(1);
        for (String id : new String[] { laptop.sessionId().orElseThrow(), phone.sessionId().orElseThrow() }) {
            assertThat(html).doesNotContain(id);
        }

        // end the phone's session by its handle
        Matcher other = Pattern.compile("data-session=\"([0-9a-f]{24})\" data-current=\"false\"").matcher(html);
        String phoneHandle = null;
        while (other.find()) {
            String row = html.substring(other.start(), html.indexOf("</tr>", other.start()));
            if (row.contains("198.51.100.20")) {
                phoneHandle = other.group(1);
            }
        }
        assertThat(phoneHandle).isNotNull();
        HttpResponse<String> ended = laptop.postForm("/cuenta/seguridad/sesiones/cerrar", Map.of("sesion", phoneHandle,
                "_csrf", WebClient.csrfOf(html)));
        assertThat(ended.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(ended)).isEqualTo("/cuenta/seguridad?cerradas=1");
        assertThat(phone.get("/cuenta/").statusCode()).as("the phone is logged out").isEqualTo(302);
        assertThat(tablet.get("/cuenta/").statusCode()).isEqualTo(200);
        assertThat(laptop.get("/cuenta/seguridad?cerradas=1").body()).contains("Se ha cerrado 1 sesión.");

        // without the page's CSRF token nothing ends
        assertThat(laptop.postForm("/cuenta/seguridad/sesiones/cerrar-otras", Map.of()).statusCode()).isEqualTo(403);
        assertThat(tablet.get("/cuenta/").statusCode()).isEqualTo(200);
        // all the others
        HttpResponse<String> others = laptop.postForm("/cuenta/seguridad/sesiones/cerrar-otras",
                Map.of("_csrf", laptop.csrfFrom("/cuenta/seguridad")));
        assertThat(WebClient.location(others)).isEqualTo("/cuenta/seguridad?cerradas=1");
        assertThat(tablet.get("/cuenta/").statusCode()).isEqualTo(302);
        assertThat(laptop.get("/cuenta/").statusCode()).as("the current session stays").isEqualTo(200);
        assertThat(count(laptop.get("/cuenta/seguridad").body(), "data-session=")).isEqualTo(1);

        // both are in the audit trail, by the user
        long id = accounts.findByEmail(email).orElseThrow().getId();
        assertThat(jdbc.queryForList("select subject from audit_events where event = 'SESSIONS_ENDED' and actor = ? "
                + "order by id", String.class, email)).containsExactly(
                        "usuario #" + id + " " + email + ": 1 sesión (" + phoneHandle + ")",
                        "usuario #" + id + " " + email + ": todas las demás (1)");
        // ending nothing writes nothing
        laptop.postForm("/cuenta/seguridad/sesiones/cerrar-otras", Map.of("_csrf", laptop.csrfFrom("/cuenta/seguridad")));
        laptop.postForm("/cuenta/seguridad/sesiones/cerrar", Map.of("sesion", phoneHandle,
                "_csrf", laptop.csrfFrom("/cuenta/seguridad")));
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'SESSIONS_ENDED' and actor = ?",
                Integer.class, email)).isEqualTo(2);
        assertThat(AuditEvent.Type.SESSIONS_ENDED.label()).isEqualTo("Sesiones cerradas por el usuario");
    }

    @Test
    void aUserChangesTheirNameAndEveryCachedTokenShowsIt() {
        email = "nombre-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Rocío", email, "correct-password-123", Role.DEVELOPER_API).getId();
        String token = tokens.createPersonal(id, "juego").value();
        // the token's owner is cached by this first call
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + token).body())
                .contains("\"primer_nombre\":\"Rocío\"");
        WebClient laptop = browser(FIREFOX, "192.0.2.30");
        WebClient phone = browser(IPHONE, "198.51.100.30");

        String page = laptop.get("/cuenta/").body();
        assertThat(page).contains("id=\"name-form\"").contains("action=\"/cuenta/nombre\"")
                .contains("name=\"primer_nombre\"").contains("value=\"Rocío\"");
        // without the page's CSRF token nothing changes
        assertThat(laptop.postForm("/cuenta/nombre", Map.of("primer_nombre", "Nadie")).statusCode()).isEqualTo(403);
        // the rule of every name here (common/Names), in the admin form's words
        for (String[] refused : new String[][] { { "   ", "Falta el nombre" }, { "x".repeat(101), "Nombre demasiado largo o inválido" },
                { "Ro\u0000cío", "Nombre demasiado largo o inválido" }, { "Ro\u202Ecío", "Nombre demasiado largo o inválido" } }) {
            HttpResponse<String> bad = laptop.postForm("/cuenta/nombre", Map.of("primer_nombre", refused[0],
                    "_csrf", laptop.csrfFrom("/cuenta/")));
            assertThat(bad.statusCode()).as(refused[0]).isEqualTo(400);
            assertThat(bad.body()).contains("<p class=\"field-error\" id=\"name-error\">" + refused[1] + "</p>")
                    .contains("<dd id=\"account-name\">Rocío</dd>");
        }
        assertThat(laptop.postForm("/cuenta/nombre", Map.of("_csrf", laptop.csrfFrom("/cuenta/"))).body())
                .contains("Falta el nombre");
        assertThat(accounts.findById(id).orElseThrow().getPrimerNombre()).isEqualTo("Rocío");

        HttpResponse<String> changed = laptop.postForm("/cuenta/nombre", Map.of("primer_nombre", "  Rocío Beatriz  ",
                "_csrf", laptop.csrfFrom("/cuenta/")));
        assertThat(changed.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(changed)).isEqualTo("/cuenta/?nombre=cambiado");
        assertThat(accounts.findById(id).orElseThrow().getPrimerNombre()).isEqualTo("Rocío Beatriz");
        assertThat(laptop.get("/cuenta/?nombre=cambiado").body()).contains("<dd id=\"account-name\">Rocío Beatriz</dd>")
                .contains("id=\"name-changed\"");
        // the other session stays open and shows the new name too
        assertThat(phone.get("/cuenta/").body()).contains("<dd id=\"account-name\">Rocío Beatriz</dd>");
        // the cached token answers with the new name at once
        HttpResponse<String> profile = new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + token);
        assertThat(profile.body()).isEqualTo("{\"ok\":true,\"user\":{\"id\":" + id + ",\"primer_nombre\":\"Rocío Beatriz\","
                + "\"correo\":\"" + email + "\",\"rol\":\"developer_api\"}}");
        assertThat(jdbc.queryForList("select subject from audit_events where event = 'NAME_CHANGED' and actor = ?",
                String.class, email)).containsExactly("usuario #" + id + " " + email + ": «Rocío» → «Rocío Beatriz»");
        // the same name again changes nothing and writes nothing
        laptop.postForm("/cuenta/nombre", Map.of("primer_nombre", "Rocío Beatriz", "_csrf", laptop.csrfFrom("/cuenta/")));
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'NAME_CHANGED' and actor = ?",
                Integer.class, email)).isEqualTo(1);
    }
}
