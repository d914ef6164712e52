package com.example.identity.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.crypto.Secrets;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.mfa.TotpCodes;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MailFiles;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /cuenta/datos} (decisions §20): a JSON attachment of everything stored about the person, no secret,
 * digest or key material in it; and every table that refers to {@code users} (read from the database's metadata
 * here) has its section, so a new table keyed by the user fails this test until the export covers it.
 */
@IntegrationTest
class DataExportIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    ClientService clients;

    @Autowired
    SecondFactors factors;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    DataSource dataSource;

    @Autowired
    DataExport export;

    /** Every table with a foreign key to {@code users}, as the database describes itself. */
    Set<String> tablesReferringToUsers() throws Exception {
        Set<String> found = new TreeSet<>();
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData meta = connection.getMetaData();
            String users = meta.storesUpperCaseIdentifiers() ? "USERS" : "users";
            try (ResultSet keys = meta.getExportedKeys(connection.getCatalog(), connection.getSchema(), users)) {
                while (keys.next()) {
                    found.add(keys.getString("FKTABLE_NAME").toLowerCase(Locale.ROOT));
                }
            }
        }
        return found;
    }

    @Test
    void everyTableKeyedByTheUserIsInTheExport() throws Exception {
        Set<String> tables = tablesReferringToUsers();
        assertThat(tables).contains("api_tokens", "oauth_clients", "refresh_tokens", "oauth_consents", "user_totp",
                "linked_identities");
        assertThat(export.tables().keySet()).as("tables that refer to users and are not in /cuenta/datos")
                .containsAll(tables);
        // and each of their sections is in the download
        String email = "datos-" + UUID.randomUUID() + "@example.com";
        accounts.create("Dani", email, "correct-password-123", Role.USER);
        var web = new WebClient(port);
        web.login(email, "correct-password-123");
        JsonNode data = JsonMapper.builder().build().readTree(web.get("/cuenta/datos").body());
        for (String table : tables) {
            assertThat(data.has(export.tables().get(table))).as(table).isTrue();
        }
    }

    @Test
    void thePersonDownloadsEverythingWithoutSecrets() {
        String email = "datos-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Dani", email, "correct-password-123", Role.DEVELOPER_API).getId();
        String token = tokens.createPersonal(id, "mi juego").value();
        var app = clients.register(id, "Mi web", "https://mi.example/cb");
        var web = new WebClient(port);
        assertThat(web.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        String secret = factors.newSecret();
        factors.enable(id, secret, TotpCodes.now(secret, 0));

        assertThat(new WebClient(port).get("/cuenta/datos").statusCode()).as("logged in only").isEqualTo(302);
        HttpResponse<String> download = web.get("/cuenta/datos");
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(download.headers().firstValue("Content-Disposition")).hasValue("attachment; filename=\"mis-datos.json\"");
        assertThat(download.headers().firstValue("Cache-Control")).hasValue("no-store");
        JsonNode data = JsonMapper.builder().build().readTree(download.body());
        assertThat(data.get("perfil").get("id").asLong()).isEqualTo(id);
        assertThat(data.get("perfil").get("correo").asString()).isEqualTo(email);
        assertThat(data.get("perfil").get("rol").asString()).isEqualTo("developer_api");
        assertThat(data.get("tokens_api").get(0).get("nombre").asString()).isEqualTo("mi juego");
        assertThat(data.get("tokens_api").get(0).get("prefijo").asString()).isEqualTo(token.substring(0, 8));
        assertThat(data.get("aplicaciones").get(0).get("client_id").asString()).isEqualTo(app.clientId());
        assertThat(data.get("aplicaciones").get(0).get("redirect_uri").asString()).isEqualTo("https://mi.example/cb");
        assertThat(data.get("aplicaciones").get(0).has("webhook_url")).as("the webhook's address, if any").isTrue();
        assertThat(data.get("segundo_factor").get("totp").has("created_at")).isTrue();
        assertThat(data.get("segundo_factor").get("codigos_de_recuperacion").size()).isEqualTo(10);
        assertThat(data.get("sesiones").size()).isEqualTo(1);
        assertThat(data.get("sesiones").get(0).get("actual").asBoolean()).isTrue();
        assertThat(data.get("eventos_auditoria").toString()).contains("LOGIN_SUCCEEDED").contains("MFA_ENABLED");

        String body = download.body();
        String passwordHash = jdbc.queryForObject("select password_hash from users where id = ?", String.class, id);
        for (String secretThing : new String[] { token, Secrets.sha256Hex(token), app.clientSecret(),
                Secrets.sha256Hex(app.clientSecret()), secret, passwordHash, web.sessionId().orElseThrow() }) {
            assertThat(body).doesNotContain(secretThing);
        }
        assertThat(body).doesNotContain("digest").doesNotContain("password_hash").doesNotContain("secret\"");
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'DATA_EXPORTED' and subject = ?",
                Integer.class, "usuario #" + id)).isEqualTo(1);
    }

    /**
     * Issue 39.6: the download's audit lines are the account's, by its id. Who takes an address that another account
     * gave up (here by changing it) gets none of that account's history; the account that changed it keeps its lines
     * written under the old address.
     */
    @Test
    void aFreedAddressBringsNoneOfItsFormerOwnersHistory() throws Exception {
        String address = "liberada-" + UUID.randomUUID() + "@example.com";
        String fresh = "nueva-" + UUID.randomUUID() + "@example.com";
        long before = accounts.create("Ana", address, "correct-password-123", Role.USER).getId();
        var first = new WebClient(port);
        assertThat(first.login(address, "correct-password-123").statusCode()).isEqualTo(302);
        assertThat(WebClient.location(first.postForm("/cuenta/correo", Map.of("correo", fresh, "contrasena",
                "correct-password-123", "_csrf", first.csrfFrom("/cuenta/"))))).isEqualTo("/cuenta/?correo=enviado");
        String link = MailFiles.link(MailFiles.newest(fresh, "Confirma tu nueva dirección de correo"),
                Pattern.compile("/cuenta/correo/confirmar\\?token=([A-Za-z0-9_-]{43})"));
        var anywhere = new WebClient(port);
        String page = anywhere.get("/cuenta/correo/confirmar?token=" + link).body();
        assertThat(anywhere.postForm("/cuenta/correo/confirmar", Map.of("token", link, "_csrf", WebClient.csrfOf(page)))
                .body()).contains("id=\"email-changed\"");

        long after = accounts.create("Bea", address, "correct-password-123", Role.USER).getId();
        var second = new WebClient(port);
        assertThat(second.login(address, "correct-password-123").statusCode()).isEqualTo(302);
        JsonNode theirs = JsonMapper.builder().build().readTree(second.get("/cuenta/datos").body()).get("eventos_auditoria");
        assertThat(events(theirs, "LOGIN_SUCCEEDED")).as(theirs.toString()).isEqualTo(1);
        assertThat(events(theirs, "EMAIL_CHANGE_REQUESTED") + events(theirs, "EMAIL_CHANGED")).isZero();
        assertThat(theirs.toString()).doesNotContain("usuario #" + before).doesNotContain(fresh);

        var again = new WebClient(port);
        assertThat(again.login(fresh, "correct-password-123").statusCode()).isEqualTo(302);
        JsonNode own = JsonMapper.builder().build().readTree(again.get("/cuenta/datos").body()).get("eventos_auditoria");
        assertThat(events(own, "LOGIN_SUCCEEDED")).as("under the old address and the new").isEqualTo(2);
        assertThat(events(own, "EMAIL_CHANGED")).isEqualTo(1);
        assertThat(own.toString()).doesNotContain("usuario #" + after);
    }

    static long events(JsonNode lines, String event) {
        long count = 0;
        for (JsonNode line : lines) {
            if (event.equals(line.get("evento").asString())) {
                count++;
            }
        }
        return count;
    }
}
