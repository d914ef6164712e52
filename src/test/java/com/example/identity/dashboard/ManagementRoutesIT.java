package com.example.identity.dashboard;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static com.example.identity.support.ApiAssertions.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.client.ClientService;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

import tools.jackson.databind.JsonNode;

/** The JSON management routes of decisions §11: bodies, errors and the ownership rule. */
@IntegrationTest
class ManagementRoutesIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    ClientService clients;

    UserAccount user(Role role) {
        return accounts.create("Mgmt", "m-" + UUID.randomUUID() + "@example.com", "a-password-for-tests", role);
    }

    /** A personal token of scope gestion, the one the management routes take (decisions §15). */
    String bearer(UserAccount owner) {
        return "Bearer " + tokens.createPersonal(owner.getId(), "cli", TokenScope.GESTION).value();
    }

    @Test
    void listTokensShowsOnlyOwnTokensWithTheDocumentedFields() {
        var me = user(Role.DEVELOPER_API);
        var other = user(Role.DEVELOPER_API);
        String auth = bearer(me);
        tokens.createPersonal(other.getId(), "not mine");

        var response = new WebClient(port).get("/api/tokens/list.php", "Authorization", auth);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        JsonNode body = json(response);
        assertThat(body.propertyNames()).containsExactly("ok", "tokens");
        assertThat(body.get("tokens").size()).isEqualTo(1);
        JsonNode token = body.get("tokens").get(0);
        assertThat(token.propertyNames()).containsExactly("id", "name", "prefix", "created_at", "last_used_at",
                "expires_at", "revoked", "scope");
        assertThat(token.get("scope").asString()).isEqualTo("gestion");
        assertThat(token.get("name").asString()).isEqualTo("cli");
        assertThat(token.get("prefix").asString()).isEqualTo(auth.substring(7, 15));
        assertThat(token.get("created_at").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(token.get("expires_at").isNull()).isTrue();
        assertThat(token.get("revoked").asBoolean()).isFalse();
    }

    @Test
    void adminSeesEveryonesTokens() {
        var admin = user(Role.ADMIN);
        var other = user(Role.DEVELOPER_API);
        long otherTokenId = tokens.createPersonal(other.getId(), "visible to admin").token().getId();

        var body = json(new WebClient(port).get("/api/tokens/list.php", "Authorization", bearer(admin)));

        assertThat(body.get("tokens").valueStream().map(t -> t.get("id").asLong())).contains(otherTokenId);
    }

    @Test
    void revokeTokenOwnOkOthers404AdminAny() {
        var me = user(Role.DEVELOPER_API);
        var other = user(Role.DEVELOPER_API);
        String myAuth = bearer(me);
        var mine = tokens.createPersonal(me.getId(), "mine");
        var theirs = tokens.createPersonal(other.getId(), "theirs");
        var web = new WebClient(port);

        var ok = web.postForm("/api/tokens/revoke.php", Map.of("id", String.valueOf(mine.token().getId())),
                "Authorization", myAuth);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("{\"ok\":true}");
        assertApiError(web.get("/api/userinfo.php", "Authorization", "Bearer " + mine.value()), 401,
                "Token inválido o revocado");

        assertApiError(web.postForm("/api/tokens/revoke.php", Map.of("id", String.valueOf(theirs.token().getId())),
                "Authorization", myAuth), 404, "Token no encontrado");
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + theirs.value()).statusCode()).isEqualTo(200);

        var admin = user(Role.ADMIN);
        assertThat(web.postForm("/api/tokens/revoke.php", Map.of("id", String.valueOf(theirs.token().getId())),
                "Authorization", bearer(admin)).statusCode()).isEqualTo(200);
        assertApiError(web.get("/api/userinfo.php", "Authorization", "Bearer " + theirs.value()), 401,
                "Token inválido o revocado");
    }

    @Test
    void revokeTokenBadInput() {
        String auth = bearer(user(Role.DEVELOPER_API));
        var web = new WebClient(port);
        assertApiError(web.postForm("/api/tokens/revoke.php", Map.of(), "Authorization", auth), 400, "Falta el parámetro id");
        assertApiError(web.postForm("/api/tokens/revoke.php", Map.of("id", "abc"), "Authorization", auth), 400, "id inválido");
        assertApiError(web.postForm("/api/tokens/revoke.php", Map.of("id", "99999999999999999999"), "Authorization", auth),
                400, "id inválido");
        assertApiError(web.postForm("/api/tokens/revoke.php", Map.of("id", "987654321"), "Authorization", auth), 404,
                "Token no encontrado");
    }

    @Test
    void createListAndRevokeClients() {
        var me = user(Role.DEVELOPER_API);
        String auth = bearer(me);
        var web = new WebClient(port);

        var created = web.postForm("/api/clients/create.php",
                Map.of("name", "Mi web", "redirect_uri", "https://mi-web.example/callback"), "Authorization", auth);
        assertThat(created.statusCode()).isEqualTo(200);
        JsonNode body = json(created);
        assertThat(body.propertyNames()).containsExactly("ok", "client");
        JsonNode client = body.get("client");
        assertThat(client.propertyNames()).containsExactly("client_id", "client_secret", "name", "redirect_uri", "type",
                "post_logout_redirect_uris", "par_obligatorio", "dpop_obligatorio", "invitados");
        assertThat(client.get("client_secret").asString()).matches("[0-9a-f]{64}");
        assertThat(client.get("client_id").asString()).matches("[A-Za-z0-9_-]{22,}");
        assertThat(client.get("name").asString()).isEqualTo("Mi web");
        assertThat(client.get("redirect_uri").asString()).isEqualTo("https://mi-web.example/callback");
        String clientId = client.get("client_id").asString();
        String live = tokens.issueForClient(user(Role.USER).getId(), clientId, Set.of("email"), "a-" + UUID.randomUUID(),
                Duration.ofHours(1));
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + live).statusCode()).isEqualTo(200);

        JsonNode list = json(web.get("/api/clients/list.php", "Authorization", auth));
        assertThat(list.propertyNames()).containsExactly("ok", "clients");
        assertThat(list.get("clients").size()).isEqualTo(1);
        assertThat(list.get("clients").get(0).propertyNames())
                .containsExactly("client_id", "name", "redirect_uri", "created_at", "revoked", "type",
                        "post_logout_redirect_uris", "par_obligatorio", "dpop_obligatorio", "invitados");
        assertThat(list.get("clients").get(0).get("revoked").asBoolean()).isFalse();
        assertThat(list.toString()).doesNotContain(client.get("client_secret").asString());

        var revoked = web.postForm("/api/clients/revoke.php", Map.of("client_id", clientId), "Authorization", auth);
        assertThat(revoked.body()).isEqualTo("{\"ok\":true}");
        assertThat(json(web.get("/api/clients/list.php", "Authorization", auth)).get("clients").get(0).get("revoked")
                .asBoolean()).isTrue();
        assertApiError(web.get("/api/userinfo.php", "Authorization", "Bearer " + live), 401, "Token inválido o revocado");
    }

    @Test
    void eachTypeAndItsLogoutAddressesAreAnsweredExactlyByCreateAndList() {
        var me = user(Role.DEVELOPER_API);
        String auth = bearer(me);
        var web = new WebClient(port);

        // a web site with two logout addresses (the field repeated; a repeat counted once)
        var site = web.postRaw("/api/clients/create.php", "name=Sitio&redirect_uri=https%3A%2F%2Fsitio.example%2Fcb"
                + "&post_logout_redirect_uri=https%3A%2F%2Fsitio.example%2Fsalida"
                + "&post_logout_redirect_uri=https%3A%2F%2Fsitio.example%2Fadios"
                + "&post_logout_redirect_uri=https%3A%2F%2Fsitio.example%2Fsalida", "Authorization", auth);
        assertThat(site.statusCode()).as(site.body()).isEqualTo(200);
        String siteId = json(site).get("client").get("client_id").asString();
        String secret = json(site).get("client").get("client_secret").asString();
        assertThat(site.body()).isEqualTo("{\"ok\":true,\"client\":{\"client_id\":\"" + siteId + "\",\"client_secret\":\""
                + secret + "\",\"name\":\"Sitio\",\"redirect_uri\":\"https://sitio.example/cb\",\"type\":\"web\","
                + "\"post_logout_redirect_uris\":[\"https://sitio.example/adios\",\"https://sitio.example/salida\"],"
                + "\"par_obligatorio\":false,\"dpop_obligatorio\":false,\"invitados\":false}}");

        // decisions §24: a launcher that accepts guest players
        var launcher = web.postForm("/api/clients/create.php", Map.of("name", "Lanzador", "type", "nativa",
                "redirect_uri", "http://127.0.0.1/cb", "invitados", "true"), "Authorization", auth);
        String launcherId = json(launcher).get("client").get("client_id").asString();
        assertThat(launcher.body()).isEqualTo("{\"ok\":true,\"client\":{\"client_id\":\"" + launcherId
                + "\",\"client_secret\":null,\"name\":\"Lanzador\",\"redirect_uri\":\"http://127.0.0.1/cb\","
                + "\"type\":\"nativa\",\"post_logout_redirect_uris\":[],\"par_obligatorio\":false,\"dpop_obligatorio\":false,\"invitados\":true}}");

        var console = web.postForm("/api/clients/create.php", Map.of("name", "Consola", "type", "dispositivo"),
                "Authorization", auth);
        String consoleId = json(console).get("client").get("client_id").asString();
        assertThat(console.body()).isEqualTo("{\"ok\":true,\"client\":{\"client_id\":\"" + consoleId
                + "\",\"client_secret\":null,\"name\":\"Consola\",\"redirect_uri\":null,\"type\":\"dispositivo\","
                + "\"post_logout_redirect_uris\":[],\"par_obligatorio\":false,\"dpop_obligatorio\":false,\"invitados\":false}}");

        // the list, newest first, says the same of each
        var listed = web.get("/api/clients/list.php", "Authorization", auth);
        JsonNode clients = json(listed).get("clients");
        assertThat(clients.size()).isEqualTo(3);
        String expected = "{\"ok\":true,\"clients\":["
                + "{\"client_id\":\"" + consoleId + "\",\"name\":\"Consola\",\"redirect_uri\":null,\"created_at\":\""
                + clients.get(0).get("created_at").asString() + "\",\"revoked\":false,\"type\":\"dispositivo\","
                + "\"post_logout_redirect_uris\":[],\"par_obligatorio\":false,\"dpop_obligatorio\":false,\"invitados\":false},"
                + "{\"client_id\":\"" + launcherId + "\",\"name\":\"Lanzador\",\"redirect_uri\":\"http://127.0.0.1/cb\","
                + "\"created_at\":\"" + clients.get(1).get("created_at").asString() + "\",\"revoked\":false,"
                + "\"type\":\"nativa\",\"post_logout_redirect_uris\":[],\"par_obligatorio\":false,\"dpop_obligatorio\":false,\"invitados\":true},"
                + "{\"client_id\":\"" + siteId + "\",\"name\":\"Sitio\",\"redirect_uri\":\"https://sitio.example/cb\","
                + "\"created_at\":\"" + clients.get(2).get("created_at").asString() + "\",\"revoked\":false,"
                + "\"type\":\"web\",\"post_logout_redirect_uris\":[\"https://sitio.example/adios\","
                + "\"https://sitio.example/salida\"],\"par_obligatorio\":false,\"dpop_obligatorio\":false,\"invitados\":false}]}";
        assertThat(listed.body()).isEqualTo(expected);
        clients.forEach(c -> assertThat(c.get("created_at").asString()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z"));
    }

    /** Decisions §28: an application that requires pushed requests and DPoP, said at creation and in the list. */
    @Test
    void anApplicationMayRequirePushedRequestsAndDPoP() {
        String auth = bearer(user(Role.DEVELOPER_API));
        var web = new WebClient(port);
        var launcher = web.postForm("/api/clients/create.php", Map.of("name", "Lanzador", "type", "nativa",
                "redirect_uri", "http://127.0.0.1/cb", "par_obligatorio", "true", "dpop_obligatorio", "true"),
                "Authorization", auth);
        String launcherId = json(launcher).get("client").get("client_id").asString();
        assertThat(launcher.body()).isEqualTo("{\"ok\":true,\"client\":{\"client_id\":\"" + launcherId
                + "\",\"client_secret\":null,\"name\":\"Lanzador\",\"redirect_uri\":\"http://127.0.0.1/cb\","
                + "\"type\":\"nativa\",\"post_logout_redirect_uris\":[],\"par_obligatorio\":true,\"dpop_obligatorio\":true,"
                + "\"invitados\":false}}");
        var console = web.postForm("/api/clients/create.php", Map.of("name", "Consola", "type", "dispositivo",
                "dpop_obligatorio", "true"), "Authorization", auth);
        assertThat(json(console).get("client").get("dpop_obligatorio").asBoolean()).isTrue();
        JsonNode listed = json(web.get("/api/clients/list.php", "Authorization", auth)).get("clients");
        assertThat(listed.get(1).get("client_id").asString()).isEqualTo(launcherId);
        assertThat(listed.get(1).get("par_obligatorio").asBoolean()).isTrue();
        assertThat(listed.get(1).get("dpop_obligatorio").asBoolean()).isTrue();
        assertThat(listed.get(0).get("par_obligatorio").asBoolean()).isFalse();

        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "Consola", "type", "dispositivo",
                "par_obligatorio", "true"), "Authorization", auth), 400, "Solo las aplicaciones de tipo web o nativa "
                + "envían solicitudes de autorización: par_obligatorio no se aplica");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "Servidor", "type", "servidor",
                "dpop_obligatorio", "true"), "Authorization", auth), 400, "El token propio de una aplicación de tipo "
                + "servidor no se liga a una clave: dpop_obligatorio no se aplica");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "Web", "redirect_uri",
                "https://w.example/cb", "par_obligatorio", "si"), "Authorization", auth), 400,
                "par_obligatorio inválido: true o false");
        assertThat(json(web.get("/api/clients/list.php", "Authorization", auth)).get("clients").size())
                .as("nothing made by a refusal").isEqualTo(2);
    }

    @Test
    void createClientBadInputNamesTheField() {
        String auth = bearer(user(Role.DEVELOPER_API));
        var web = new WebClient(port);
        assertApiError(web.postForm("/api/clients/create.php", Map.of("redirect_uri", "https://x.example/cb"),
                "Authorization", auth), 400, "Falta el parámetro name");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x"), "Authorization", auth), 400,
                "Falta el parámetro redirect_uri");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "http://evil.example/cb"),
                "Authorization", auth), 400, "redirect_uri inválido: usa https (http solo para localhost, 127.0.0.1 o [::1])");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "https://x.example/cb#f"),
                "Authorization", auth), 400, "redirect_uri inválido: no puede llevar fragmento (#)");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "/relative"),
                "Authorization", auth), 400, "redirect_uri inválido: debe ser una URI absoluta");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "n".repeat(101), "redirect_uri",
                "https://x.example/cb"), "Authorization", auth), 400, "name demasiado largo");
        assertThat(web.postForm("/api/clients/create.php", Map.of("name", "loop", "redirect_uri", "http://127.0.0.1:8765/cb"),
                "Authorization", auth).statusCode()).isEqualTo(200);
        // decisions §24: invitados is true or false, and only a nativa or dispositivo application accepts guests
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x", "type", "nativa", "redirect_uri",
                "http://127.0.0.1/cb", "invitados", "sí"), "Authorization", auth), 400, "invitados inválido: true o false");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "https://x.example/cb",
                "invitados", "true"), "Authorization", auth), 400,
                "Solo las aplicaciones de tipo nativa o dispositivo admiten invitados");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x", "type", "servidor", "invitados", "true"),
                "Authorization", auth), 400, "Solo las aplicaciones de tipo nativa o dispositivo admiten invitados");
    }

    @Test
    void revokeSomeoneElsesClientIs404ForDeveloperAndOkForAdmin() {
        var owner = user(Role.DEVELOPER_API);
        var theirs = clients.register(owner.getId(), "theirs", "https://theirs.example/cb");
        String live = tokens.issueForClient(user(Role.USER).getId(), theirs.clientId(), Set.of("email"),
                "a-" + UUID.randomUUID(), Duration.ofHours(1));
        var web = new WebClient(port);

        assertApiError(web.postForm("/api/clients/revoke.php", Map.of("client_id", theirs.clientId()), "Authorization",
                bearer(user(Role.DEVELOPER_API))), 404, "Aplicación no encontrada");
        assertThat(clients.findByClientId(theirs.clientId()).orElseThrow().isRevoked()).isFalse();
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + live).statusCode()).isEqualTo(200);

        assertThat(web.postForm("/api/clients/revoke.php", Map.of("client_id", theirs.clientId()), "Authorization",
                bearer(user(Role.ADMIN))).statusCode()).isEqualTo(200);
        assertThat(clients.findByClientId(theirs.clientId()).orElseThrow().isRevoked()).isTrue();
        assertApiError(web.get("/api/userinfo.php", "Authorization", "Bearer " + live), 401, "Token inválido o revocado");
    }

    @Test
    void tokenIssuedToAnOAuthClientIsRefusedWith403() {
        var owner = user(Role.DEVELOPER_API);
        String oauthToken = tokens.issueForClient(owner.getId(), "demo-app", Set.of("openid"), "a-" + UUID.randomUUID(),
                Duration.ofHours(1));
        var web = new WebClient(port);

        assertApiError(web.get("/api/tokens/list.php", "Authorization", "Bearer " + oauthToken), 403, "Permiso denegado");
        assertApiError(web.get("/api/clients/list.php", "Authorization", "Bearer " + oauthToken), 403, "Permiso denegado");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "https://x.example/cb"),
                "Authorization", "Bearer " + oauthToken), 403, "Permiso denegado");
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + oauthToken).statusCode()).isEqualTo(200);
    }

    @Test
    void plainUserIsRefusedAndSessionNeedsCsrf() {
        var web = new WebClient(port);
        assertApiError(web.get("/api/tokens/list.php", "Authorization", bearer(user(Role.USER))), 403, "Permiso denegado");
        assertApiError(web.get("/api/tokens/list.php"), 401, "Sesión no iniciada");

        var session = new WebClient(port);
        session.login("dev@example.com", "dev-demo-password");
        assertThat(session.get("/api/tokens/list.php").statusCode()).isEqualTo(200);
        assertApiError(session.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "https://x.example/cb")),
                403, "Token CSRF inválido");
        String csrf = session.csrfFrom("/dashboard/developer.php");
        assertThat(session.postForm("/api/clients/create.php", Map.of("name", "x", "redirect_uri", "https://x.example/cb",
                "_csrf", csrf)).statusCode()).isEqualTo(200);
    }
}
