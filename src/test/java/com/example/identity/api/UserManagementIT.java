package com.example.identity.api;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static com.example.identity.support.ApiAssertions.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

import tools.jackson.databind.JsonNode;

/** The administration API of decisions §23: exact bodies of every route and every refusal. */
@IntegrationTest
class UserManagementIT {

    static final String PASSWORD = "a-password-for-tests";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    JdbcTemplate jdbc;

    UserAccount user(Role role) {
        return accounts.create("Persona", "u-" + UUID.randomUUID() + "@example.com", PASSWORD, role);
    }

    String bearer(UserAccount owner) {
        return "Bearer " + tokens.createPersonal(owner.getId(), "cli", TokenScope.GESTION).value();
    }

    String row(UserAccount u, boolean activo) {
        var fresh = accounts.findById(u.getId()).orElseThrow();
        return "{\"id\":" + u.getId() + ",\"primer_nombre\":\"" + fresh.getPrimerNombre() + "\",\"correo\":\""
                + fresh.getCorreo() + "\",\"rol\":\"" + fresh.getRol().value() + "\",\"activo\":" + activo
                + ",\"created_at\":\"" + TokenManagementController.iso(fresh.getCreatedAt()) + "\"}";
    }

    @Test
    void listSearchesAndPagesWithTheDocumentedBody() {
        String auth = bearer(user(Role.ADMIN));
        String tag = UUID.randomUUID().toString().substring(0, 8);
        var a = accounts.create("Buscada Uno", "busca-" + tag + "-1@example.com", PASSWORD, Role.USER);
        var b = accounts.create("Buscada Dos", "busca-" + tag + "-2@example.com", PASSWORD, Role.DEVELOPER_API);
        var web = new WebClient(port);

        var found = web.get("/api/usuarios/list.php?q=busca-" + tag, "Authorization", auth);
        assertThat(found.statusCode()).isEqualTo(200);
        assertThat(found.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(found.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(found.body()).isEqualTo("{\"ok\":true,\"usuarios\":[" + row(a, true) + "," + row(b, true) + "]}");
        assertThat(found.headers().firstValue("Link")).isEmpty();

        var first = web.get("/api/usuarios/list.php?q=busca-" + tag + "&size=1", "Authorization", auth);
        assertThat(first.body()).isEqualTo("{\"ok\":true,\"usuarios\":[" + row(a, true) + "]}");
        assertThat(first.headers().firstValue("Link")).hasValue(
                "</api/usuarios/list.php?page=2&size=1&q=busca-" + tag + ">; rel=\"next\"");
        var second = web.get("/api/usuarios/list.php?q=busca-" + tag + "&size=1&page=2", "Authorization", auth);
        assertThat(second.body()).isEqualTo("{\"ok\":true,\"usuarios\":[" + row(b, true) + "]}");
        assertThat(second.headers().firstValue("Link")).hasValue(
                "</api/usuarios/list.php?page=1&size=1&q=busca-" + tag + ">; rel=\"prev\"");
        assertThat(web.get("/api/usuarios/list.php?q=busca-" + tag + "&size=1&page=3", "Authorization", auth).body())
                .isEqualTo("{\"ok\":true,\"usuarios\":[]}");

        // without a search, by id from the first account: the demo admin is there
        JsonNode all = json(web.get("/api/usuarios/list.php?size=200", "Authorization", auth));
        assertThat(all.propertyNames()).containsExactly("ok", "usuarios");
        assertThat(all.get("usuarios").get(0).propertyNames())
                .containsExactly("id", "primer_nombre", "correo", "rol", "activo", "created_at");
        assertThat(all.get("usuarios").valueStream().map(u -> u.get("correo").asString())).contains("admin@example.com");

        assertApiError(web.get("/api/usuarios/list.php?page=0", "Authorization", auth), 400,
                "page inválido (un número de 1 a 10000)");
        assertApiError(web.get("/api/usuarios/list.php?page=10001", "Authorization", auth), 400,
                "page inválido (un número de 1 a 10000)");
        assertApiError(web.get("/api/usuarios/list.php?size=0", "Authorization", auth), 400,
                "size inválido (un número de 1 a 200)");
        assertApiError(web.get("/api/usuarios/list.php?size=201", "Authorization", auth), 400,
                "size inválido (un número de 1 a 200)");
        assertApiError(web.get("/api/usuarios/list.php?size=abc", "Authorization", auth), 400,
                "size inválido (un número de 1 a 200)");
        assertApiError(web.get("/api/usuarios/list.php?q=ab", "Authorization", auth), 400,
                "q demasiado corto (mínimo 3 caracteres)");
        assertApiError(web.get("/api/usuarios/list.php?q=" + "x".repeat(101), "Authorization", auth), 400,
                "q demasiado largo (máximo 100 caracteres)");
        assertApiError(web.get("/api/usuarios/list.php?page=1&page=2", "Authorization", auth), 400,
                "Parámetro repetido: page");
    }

    @Test
    void createAnswersTheAccountAndAOneTimePasswordThatLogsIn() {
        String auth = bearer(user(Role.ADMIN));
        String correo = "nueva-" + UUID.randomUUID() + "@example.com";
        var web = new WebClient(port);

        var created = web.postForm("/api/usuarios/create.php", Map.of("correo", "  " + correo.toUpperCase() + " ",
                "primer_nombre", "Nueva", "rol", "developer_api"), "Authorization", auth);

        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        assertThat(created.headers().firstValue("Cache-Control")).hasValue("no-store");
        JsonNode body = json(created);
        long id = body.get("usuario").get("id").asLong();
        String temporary = body.get("contrasena_temporal").asString();
        assertThat(temporary).matches("[A-Za-z0-9_-]{20}");
        var account = accounts.findById(id).orElseThrow();
        assertThat(created.body()).isEqualTo("{\"ok\":true,\"usuario\":{\"id\":" + id + ",\"primer_nombre\":\"Nueva\","
                + "\"correo\":\"" + correo + "\",\"rol\":\"developer_api\",\"activo\":true,\"created_at\":\""
                + TokenManagementController.iso(account.getCreatedAt()) + "\"},\"contrasena_temporal\":\"" + temporary + "\"}");
        // the one-time password logs in, and must be changed first, as from the admin page
        var newcomer = new WebClient(port);
        assertThat(WebClient.location(newcomer.login(correo, temporary))).isEqualTo("/dashboard/developer.php");
        assertThat(WebClient.location(newcomer.get("/dashboard/developer.php"))).startsWith("/cuenta/contrasena");
        assertThat(audit("USER_CREATED", "usuario #" + id + " " + correo)).isEqualTo(1);

        // rol is optional: user
        var plain = web.postForm("/api/usuarios/create.php", Map.of("correo", "p-" + correo, "primer_nombre", "Plana"),
                "Authorization", auth);
        assertThat(json(plain).get("usuario").get("rol").asString()).isEqualTo("user");

        assertApiError(web.postForm("/api/usuarios/create.php", Map.of("correo", correo, "primer_nombre", "Otra"),
                "Authorization", auth), 409, "Ya existe una cuenta con ese correo");
        assertApiError(web.postForm("/api/usuarios/create.php", Map.of("correo", "x-" + correo, "primer_nombre", "X",
                "rol", "root"), "Authorization", auth), 400, "rol inválido: user, developer_api o admin");
        assertApiError(web.postForm("/api/usuarios/create.php", Map.of("correo", "no-es-correo", "primer_nombre", "X"),
                "Authorization", auth), 400, "Correo inválido");
        assertApiError(web.postForm("/api/usuarios/create.php", Map.of("correo", "y-" + correo),
                "Authorization", auth), 400, "Falta el nombre");
        assertApiError(web.postForm("/api/usuarios/create.php", Map.of("correo", "z-" + correo,
                "primer_nombre", "n".repeat(101)), "Authorization", auth), 400, "Nombre demasiado largo o inválido");
        assertApiError(web.postRaw("/api/usuarios/create.php", "correo=a%40b.example&correo=c%40d.example&primer_nombre=X",
                "Authorization", auth), 400, "Parámetro repetido: correo");
    }

    @Test
    void updateChangesRoleActiveAndNameEndingSessionsAsTheAdminPageDoes() {
        var admin = user(Role.ADMIN);
        String auth = bearer(admin);
        var target = user(Role.DEVELOPER_API);
        String targetToken = bearer(target);
        var targetSession = new WebClient(port);
        targetSession.login(target.getCorreo(), PASSWORD);
        assertThat(targetSession.get("/api/tokens/list.php").statusCode()).isEqualTo(200);
        var web = new WebClient(port);

        var renamed = web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "primer_nombre", " Renata "),
                "Authorization", auth);
        assertThat(renamed.body()).isEqualTo("{\"ok\":true}");
        assertThat(accounts.findById(target.getId()).orElseThrow().getPrimerNombre()).isEqualTo("Renata");
        // a new name keeps the sessions
        assertThat(targetSession.get("/api/tokens/list.php").statusCode()).isEqualTo(200);

        var promoted = web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "rol", "admin"),
                "Authorization", auth);
        assertThat(promoted.body()).isEqualTo("{\"ok\":true}");
        assertApiError(targetSession.get("/api/tokens/list.php"), 401, "Sesión no iniciada");
        assertThat(audit("ROLE_CHANGED", "usuario #" + target.getId() + " " + target.getCorreo() + ": developer_api → admin"))
                .isEqualTo(1);

        var disabled = web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "activo", "false"),
                "Authorization", auth);
        assertThat(disabled.body()).isEqualTo("{\"ok\":true}");
        assertApiError(web.get("/api/userinfo.php", "Authorization", targetToken), 401, "Token inválido o revocado");
        assertThat(WebClient.location(new WebClient(port).login(target.getCorreo(), PASSWORD))).startsWith("/login/?error");
        assertThat(web.get("/api/usuarios/list.php?q=" + target.getCorreo(), "Authorization", auth).body())
                .isEqualTo("{\"ok\":true,\"usuarios\":[" + row(target, false) + "]}");

        assertThat(web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "activo", "true", "rol", "user"),
                "Authorization", auth).body()).isEqualTo("{\"ok\":true}");
        assertThat(web.get("/api/usuarios/list.php?q=" + target.getCorreo(), "Authorization", auth).body())
                .isEqualTo("{\"ok\":true,\"usuarios\":[" + row(target, true) + "]}");
        assertThat(audit("USER_ENABLED", "usuario #" + target.getId() + " " + target.getCorreo())).isEqualTo(1);

        // bad input changes nothing
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "rol", "jefe",
                "primer_nombre", "Nunca"), "Authorization", auth), 400, "rol inválido: user, developer_api o admin");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "activo", "si"),
                "Authorization", auth), 400, "activo inválido: true o false");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "primer_nombre", " ",
                "activo", "false"), "Authorization", auth), 400, "Falta el nombre");
        assertThat(accounts.findById(target.getId()).orElseThrow().isEnabled()).isTrue();
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId()), "Authorization", auth),
                400, "Nada que cambiar: envía rol, activo, primer_nombre o fecha_nacimiento");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("rol", "user"), "Authorization", auth), 400,
                "Falta el parámetro id");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", "doce", "rol", "user"), "Authorization", auth),
                400, "id inválido");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", "99999999999999999999", "rol", "user"),
                "Authorization", auth), 400, "id inválido");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", "987654321", "rol", "user"),
                "Authorization", auth), 404, "Usuario no encontrado");

        // an admin renames themselves, never demotes or disables themselves
        String self = "" + admin.getId();
        assertThat(web.postForm("/api/usuarios/update.php", Map.of("id", self, "primer_nombre", "Yo", "rol", "admin"),
                "Authorization", auth).body()).isEqualTo("{\"ok\":true}");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", self, "rol", "user"), "Authorization", auth),
                409, "No puedes cambiar tu propio rol ni desactivar tu cuenta");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", self, "activo", "false"), "Authorization", auth),
                409, "No puedes cambiar tu propio rol ni desactivar tu cuenta");
        assertThat(accounts.findById(admin.getId()).orElseThrow().getRol()).isEqualTo(Role.ADMIN);
    }

    @Test
    void deleteRemovesTheAccountAsDecisionsTwentySays() {
        var admin = user(Role.ADMIN);
        String auth = bearer(admin);
        var target = user(Role.DEVELOPER_API);
        String correo = target.getCorreo();
        String targetToken = bearer(target);
        var targetSession = new WebClient(port);
        targetSession.login(correo, PASSWORD);
        assertThat(targetSession.get("/api/tokens/list.php").statusCode()).isEqualTo(200);
        var web = new WebClient(port);
        // an earlier line names the address
        web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "primer_nombre", "Antes"),
                "Authorization", auth);
        assertThat(auditMentioning(correo)).isPositive();

        var deleted = web.postForm("/api/usuarios/delete.php", Map.of("id", "" + target.getId()), "Authorization", auth);

        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(deleted.body()).isEqualTo("{\"ok\":true}");
        // the audit trail keeps the id, not the address (checked before a login below types the address again)
        assertThat(auditMentioning(correo)).isZero();
        assertThat(audit("USER_DELETED", "usuario #" + target.getId() + " (por un admin)")).isEqualTo(1);
        assertThat(audit("NAME_CHANGED", "usuario #" + target.getId() + ": «Persona» → «Antes»")).isEqualTo(1);
        assertApiError(targetSession.get("/api/tokens/list.php"), 401, "Sesión no iniciada");
        assertApiError(web.get("/api/userinfo.php", "Authorization", targetToken), 401, "Token inválido o revocado");
        assertThat(WebClient.location(new WebClient(port).login(correo, PASSWORD))).startsWith("/login/?error");
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where user_id = ?", Long.class, target.getId()))
                .isZero();
        assertThat(web.get("/api/usuarios/list.php?q=" + correo, "Authorization", auth).body())
                .isEqualTo("{\"ok\":true,\"usuarios\":[]}");
        // again: gone; the address is free, the id is not given again
        assertApiError(web.postForm("/api/usuarios/delete.php", Map.of("id", "" + target.getId()), "Authorization", auth),
                404, "Usuario no encontrado");
        assertApiError(web.postForm("/api/usuarios/update.php", Map.of("id", "" + target.getId(), "activo", "true"),
                "Authorization", auth), 404, "Usuario no encontrado");
        var again = json(web.postForm("/api/usuarios/create.php", Map.of("correo", correo, "primer_nombre", "Otra vez"),
                "Authorization", auth));
        assertThat(again.get("usuario").get("id").asLong()).isGreaterThan(target.getId());

        assertApiError(web.postForm("/api/usuarios/delete.php", Map.of("id", "" + admin.getId()), "Authorization", auth),
                409, "No puedes eliminar tu propia cuenta");
        assertApiError(web.postForm("/api/usuarios/delete.php", Map.of(), "Authorization", auth), 400, "Falta el parámetro id");
        assertApiError(web.postForm("/api/usuarios/delete.php", Map.of("id", "-"), "Authorization", auth), 400, "id inválido");
        assertApiError(web.postForm("/api/usuarios/delete.php", Map.of("id", "987654321"), "Authorization", auth), 404,
                "Usuario no encontrado");
    }

    @Test
    void onlyAdminsWithASessionAndCsrfOrAGestionToken() {
        var web = new WebClient(port);
        var victim = user(Role.USER);
        Map<String, String> deleteVictim = Map.of("id", "" + victim.getId());
        for (String path : List.of("/api/usuarios/list.php")) {
            assertApiError(web.get(path), 401, "Sesión no iniciada");
        }
        for (String path : List.of("/api/usuarios/create.php", "/api/usuarios/update.php", "/api/usuarios/delete.php")) {
            assertApiError(web.postForm(path, deleteVictim), 401, "Sesión no iniciada");
        }
        assertApiError(web.get("/api/usuarios/list.php", "Authorization", "Bearer not-a-token"), 401,
                "Token inválido o revocado");
        // a developer's gestion token, an admin's perfil token
        assertApiError(web.get("/api/usuarios/list.php", "Authorization", bearer(user(Role.DEVELOPER_API))), 403,
                "Permiso denegado");
        assertApiError(web.postForm("/api/usuarios/delete.php", deleteVictim, "Authorization", bearer(user(Role.DEVELOPER_API))),
                403, "Permiso denegado");
        String perfil = "Bearer " + tokens.createPersonal(user(Role.ADMIN).getId(), "perfil", TokenScope.PERFIL).value();
        assertApiError(web.get("/api/usuarios/list.php", "Authorization", perfil), 403, "Permiso denegado");
        // a token issued to an application, even for an admin
        String issued = tokens.issueForClient(user(Role.ADMIN).getId(), "demo-app", Set.of("email"), "a-" + UUID.randomUUID(),
                java.time.Duration.ofHours(1));
        assertApiError(web.get("/api/usuarios/list.php", "Authorization", "Bearer " + issued), 403, "Permiso denegado");

        // sessions: a developer is refused before the CSRF token is looked at
        var developer = new WebClient(port);
        developer.login("dev@example.com", "dev-demo-password");
        assertApiError(developer.get("/api/usuarios/list.php"), 403, "Permiso denegado");
        assertApiError(developer.postForm("/api/usuarios/delete.php", deleteVictim), 403, "Permiso denegado");
        var plain = new WebClient(port);
        var plainUser = user(Role.USER);
        plain.login(plainUser.getCorreo(), PASSWORD);
        assertApiError(plain.get("/api/usuarios/list.php"), 403, "Permiso denegado");

        var admin = new WebClient(port);
        admin.login("admin@example.com", "admin-demo-password");
        assertThat(admin.get("/api/usuarios/list.php?size=1").statusCode()).isEqualTo(200);
        assertApiError(admin.postForm("/api/usuarios/delete.php", deleteVictim), 403, "Token CSRF inválido");
        assertApiError(admin.postForm("/api/usuarios/delete.php", Map.of("id", "" + victim.getId(), "_csrf", "wrong")), 403,
                "Token CSRF inválido");
        assertThat(accounts.findById(victim.getId())).isPresent();
        String csrf = admin.csrfFrom("/dashboard/admin.php");
        HttpResponse<String> ok = admin.postForm("/api/usuarios/delete.php", Map.of("id", "" + victim.getId(), "_csrf", csrf));
        assertThat(ok.body()).isEqualTo("{\"ok\":true}");
        assertThat(accounts.findById(victim.getId())).isEmpty();
        // a GET of a POST route: 405 in the API's shape
        assertApiError(admin.get("/api/usuarios/delete.php"), 405, "Método no permitido");
    }

    private long audit(String event, String subject) {
        return jdbc.queryForObject("select count(*) from audit_events where event = ? and subject = ?", Long.class, event,
                subject);
    }

    private long auditMentioning(String correo) {
        return jdbc.queryForObject("select count(*) from audit_events where position(? in subject) > 0 or actor = ?",
                Long.class, correo, correo);
    }
}
