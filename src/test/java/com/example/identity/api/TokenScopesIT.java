package com.example.identity.api;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static com.example.identity.support.ApiAssertions.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

/**
 * Scopes of personal tokens (decisions §15): {@code perfil} by default, good for {@code /api/userinfo.php}
 * only; {@code gestion} also for the management routes; chosen at {@code /api/tokens/create.php} and in
 * the dashboard, shown by {@code /api/tokens/list.php}.
 */
@IntegrationTest
class TokenScopesIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    /** A fresh developer's session and the CSRF token of their dashboard. */
    record Session(WebClient web, String csrf, long userId) {
    }

    Session developer() {
        String email = "scope-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Sofía", email, "a-password-for-tests", Role.DEVELOPER_API).getId();
        var web = new WebClient(port);
        assertThat(web.login(email, "a-password-for-tests").statusCode()).isEqualTo(302);
        return new Session(web, web.csrfFrom("/dashboard/developer.php"), id);
    }

    static String create(Session session, Map<String, String> fields) {
        var form = new LinkedHashMap<>(fields);
        form.put("_csrf", session.csrf());
        var response = session.web().postForm("/api/tokens/create.php", form);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response).get("token").asString();
    }

    @Test
    void aTokenIsPerfilByDefaultAndGoodForUserinfoOnly() {
        var session = developer();
        String token = create(session, Map.of("name", "juego"));
        var theirs = clients.register(session.userId(), "Su web", "https://su-web.example/cb");
        var web = new WebClient(port);
        String bearer = "Bearer " + token;

        assertThat(web.get("/api/userinfo.php", "Authorization", bearer).statusCode()).isEqualTo(200);
        assertApiError(web.get("/api/tokens/list.php", "Authorization", bearer), 403, "Permiso denegado");
        assertApiError(web.postForm("/api/tokens/revoke.php", Map.of("id", "1"), "Authorization", bearer), 403,
                "Permiso denegado");
        assertApiError(web.get("/api/clients/list.php", "Authorization", bearer), 403, "Permiso denegado");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "https://x.example/cb"),
                "Authorization", bearer), 403, "Permiso denegado");
        assertApiError(web.postForm("/api/clients/revoke.php", Map.of("client_id", theirs.clientId()),
                "Authorization", bearer), 403, "Permiso denegado");
        // a bearer token is no session, whatever its scope
        assertApiError(web.postForm("/api/tokens/create.php", Map.of("name", "x"), "Authorization", bearer), 401,
                "Sesión no iniciada");

        assertThat(clients.findByClientId(theirs.clientId()).orElseThrow().isRevoked()).isFalse();
        assertThat(clients.listForOwner(session.userId())).hasSize(1);
        JsonNode listed = json(session.web().get("/api/tokens/list.php")).get("tokens").get(0);
        assertThat(listed.get("scope").asString()).isEqualTo("perfil");
        assertThat(listed.get("revoked").asBoolean()).isFalse();
    }

    @Test
    void aGestionTokenManages() {
        var session = developer();
        String token = create(session, Map.of("name", "ci", "scope", "gestion"));
        var web = new WebClient(port);

        var listed = web.get("/api/tokens/list.php", "Authorization", "Bearer " + token);
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(json(listed).get("tokens").get(0).get("scope").asString()).isEqualTo("gestion");
        assertThat(web.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "https://x.example/cb"),
                "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        assertThat(create(session, Map.of("name", "juego", "scope", "perfil"))).matches("[0-9a-f]{64}");
        assertThat(json(session.web().get("/api/tokens/list.php")).get("tokens").valueStream()
                .map(t -> t.get("scope").asString())).containsExactly("perfil", "gestion");
    }

    @Test
    void anyOtherScopeIsRefusedAfterTheName() {
        var session = developer();
        for (String bad : new String[] { "admin", "", "Gestion", "gestion ", "perfil,gestion", "openid" }) {
            assertApiError(session.web().postForm("/api/tokens/create.php",
                    Map.of("name", "x", "scope", bad, "_csrf", session.csrf())), 400, "scope inválido");
        }
        assertApiError(session.web().postRaw("/api/tokens/create.php",
                "name=x&scope=perfil&scope=gestion&_csrf=" + session.csrf()), 400, "Parámetro repetido: scope");
        assertApiError(session.web().postForm("/api/tokens/create.php", Map.of("scope", "admin", "_csrf", session.csrf())),
                400, "Falta el parámetro name");
        assertThat(json(session.web().get("/api/tokens/list.php")).get("tokens").size()).isZero();
    }

    @Test
    void theDashboardOffersTheChoiceAndShowsIt() {
        var session = developer();
        String page = session.web().get("/dashboard/developer.php").body();
        assertThat(page).contains("<select id=\"token-scope\" name=\"scope\">")
                .contains("<option value=\"perfil\" selected>").contains("<option value=\"gestion\">");

        assertThat(session.web().postForm("/dashboard/tokens/create", Map.of("name", "sin ámbito", "_csrf", session.csrf()))
                .body()).contains("id=\"new-token\"");
        assertThat(session.web().postForm("/dashboard/tokens/create",
                Map.of("name", "ci", "scope", "gestion", "_csrf", session.csrf())).body()).contains("id=\"new-token\"");
        var refused = session.web().postForm("/dashboard/tokens/create",
                Map.of("name", "raro", "scope", "todo", "_csrf", session.csrf()));
        assertThat(WebClient.location(refused)).isEqualTo("/dashboard/developer.php#tokens");
        assertThat(session.web().get("/dashboard/developer.php").body())
                .contains("<p class=\"field-error\" id=\"token-name-error\">Elige un ámbito: perfil o gestión.</p>")
                .contains("<td class=\"token-scope\">gestion <span class=\"scope-meaning\">(también las rutas de gestión)</span></td>")
                .contains("<td class=\"token-scope\">perfil <span class=\"scope-meaning\">(solo /api/userinfo.php)</span></td>");

        assertThat(jdbc.query("select name, personal_scope from api_tokens where user_id = ? order by id",
                (row, i) -> row.getString(1) + "=" + row.getString(2), session.userId()))
                .containsExactly("sin ámbito=perfil", "ci=gestion");
    }
}
