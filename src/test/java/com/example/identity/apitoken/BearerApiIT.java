package com.example.identity.apitoken;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static com.example.identity.support.ApiAssertions.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.crypto.Secrets;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MovableClock;
import com.example.identity.support.RawHttp;
import com.example.identity.support.WebClient;

/** {@code /api/userinfo.php} and {@code /api/tokens/create.php}, byte for byte (specification §4.1, §4.2, §7). */
@IntegrationTest
class BearerApiIT {

    @LocalServerPort
    int port;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    AccountService accounts;

    @Autowired
    AccountAdministration administration;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MovableClock clock;

    UserAccount newUser(Role role, String name) {
        return accounts.create(name, "api-" + UUID.randomUUID() + "@example.com", "a-password-for-tests", role);
    }

    HttpResponse<String> userinfo(String... headers) {
        return new WebClient(port).get("/api/userinfo.php", headers);
    }

    @Test
    void userinfoReturnsTheOwnersProfileWithExactlyTheDocumentedKeys() {
        var owner = newUser(Role.DEVELOPER_API, "Íñigo");
        String token = tokens.createPersonal(owner.getId(), "game").value();

        var response = userinfo("Authorization", "Bearer " + token);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        JsonNode body = json(response);
        assertThat(body.propertyNames()).containsExactly("ok", "user");
        assertThat(body.get("ok").asBoolean()).isTrue();
        JsonNode user = body.get("user");
        assertThat(user.propertyNames()).containsExactly("id", "primer_nombre", "correo", "rol");
        assertThat(user.get("id").isIntegralNumber()).isTrue();
        assertThat(user.get("id").asLong()).isEqualTo(owner.getId());
        assertThat(user.get("primer_nombre").asString()).isEqualTo("Íñigo");
        assertThat(user.get("correo").asString()).isEqualTo(owner.getCorreo());
        assertThat(user.get("rol").asString()).isEqualTo("developer_api");
        assertThat(response.body()).isEqualTo("{\"ok\":true,\"user\":{\"id\":" + owner.getId()
                + ",\"primer_nombre\":\"Íñigo\",\"correo\":\"" + owner.getCorreo() + "\",\"rol\":\"developer_api\"}}");
    }

    @Test
    void bearerRequestsNeverCreateOrJoinASession() {
        var owner = newUser(Role.USER, "Sin sesión");
        String token = tokens.createPersonal(owner.getId(), "t").value();
        var web = new WebClient(port);

        var ok = web.get("/api/userinfo.php", "Authorization", "Bearer " + token);
        var refused = web.get("/api/tokens/list.php", "Authorization", "Bearer " + token);

        assertThat(ok.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(web.sessionId()).isEmpty();
        assertApiError(web.get("/api/tokens/list.php"), 401, "Sesión no iniciada");
    }

    @ParameterizedTest
    @ValueSource(strings = { "bearer ", "BEARER ", "BeArEr " })
    void bearerSchemeIsCaseInsensitive(String scheme) {
        String token = tokens.createPersonal(newUser(Role.ADMIN, "Ana").getId(), "t").value();
        assertThat(userinfo("Authorization", scheme + token).statusCode()).isEqualTo(200);
    }

    @Test
    void withoutBearerTokenThen401FaltaTokenBearer() {
        var response = userinfo();

        assertApiError(response, 401, "Falta token Bearer");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    }

    @Test
    void otherSchemeOrSessionIsNotABearerToken() {
        assertApiError(userinfo("Authorization", "Basic ZGV2OnB3"), 401, "Falta token Bearer");
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        assertApiError(web.get("/api/userinfo.php"), 401, "Falta token Bearer");
    }

    @Test
    void unknownTokenThen401InvalidToken() {
        var response = userinfo("Authorization", "Bearer " + Secrets.randomHex(32));

        assertApiError(response, 401, "Token inválido o revocado");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"invalid_token\"");
    }

    @Test
    void revokedTokenThen401() {
        var issued = tokens.createPersonal(newUser(Role.DEVELOPER_API, "Rosa").getId(), "t");
        assertThat(userinfo("Authorization", "Bearer " + issued.value()).statusCode()).isEqualTo(200);

        assertThat(tokens.revoke(issued.token().getId())).isTrue();

        assertApiError(userinfo("Authorization", "Bearer " + issued.value()), 401, "Token inválido o revocado");
        assertThat(tokens.revoke(issued.token().getId())).isFalse();
    }

    @Test
    void expiredTokenThen401() {
        var owner = newUser(Role.USER, "Eli");
        var issued = tokens.issueForClient(owner.getId(), "demo-app", Set.of("openid"), "authz-" + UUID.randomUUID(),
                Duration.ofHours(1));
        clock.advance(Duration.ofHours(1).plusSeconds(1));

        assertApiError(userinfo("Authorization", "Bearer " + issued), 401, "Token inválido o revocado");
    }

    @Test
    void aTokenThatExpiresWhileCachedIsRefusedAtItsExpiry() {
        var owner = newUser(Role.USER, "Cache");
        var issued = tokens.issueForClient(owner.getId(), "demo-app", Set.of("openid"), "authz-" + UUID.randomUUID(),
                Duration.ofSeconds(3));
        assertThat(userinfo("Authorization", "Bearer " + issued).statusCode()).isEqualTo(200);

        clock.advance(Duration.ofSeconds(3).plusMillis(100));

        assertApiError(userinfo("Authorization", "Bearer " + issued), 401, "Token inválido o revocado");
    }

    @Test
    void tokenOfDisabledUserIsRefusedAtOnce() {
        var owner = newUser(Role.DEVELOPER_API, "Dis");
        String token = tokens.createPersonal(owner.getId(), "t").value();
        assertThat(userinfo("Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();

        administration.disable(new com.example.identity.account.Caller(admin, true), owner.getId());

        assertApiError(userinfo("Authorization", "Bearer " + token), 401, "Token inválido o revocado");
    }

    @Test
    void tokensAreStoredOnlyAsDigests() {
        var issued = tokens.createPersonal(newUser(Role.DEVELOPER_API, "Dig").getId(), "t");

        assertThat(issued.value()).matches("[0-9a-f]{64}");
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where token_digest = ?", Integer.class,
                issued.value())).isZero();
        assertThat(jdbc.queryForMap("select token_digest, prefix from api_tokens where id = ?", issued.token().getId()))
                .containsEntry("token_digest", Secrets.sha256Hex(issued.value()))
                .containsEntry("prefix", issued.value().substring(0, 8));
    }

    @Test
    void lastUsedIsWrittenOnceAMinuteAtMost() {
        var issued = tokens.createPersonal(newUser(Role.DEVELOPER_API, "Last").getId(), "t");
        String sql = "select last_used_at from api_tokens where id = ?";
        assertThat(jdbc.queryForObject(sql, Timestamp.class, issued.token().getId())).isNull();

        userinfo("Authorization", "Bearer " + issued.value());
        Timestamp first = jdbc.queryForObject(sql, Timestamp.class, issued.token().getId());
        assertThat(first).isNotNull();
        userinfo("Authorization", "Bearer " + issued.value());

        assertThat(jdbc.queryForObject(sql, Timestamp.class, issued.token().getId())).isEqualTo(first);
    }

    // ---- /api/tokens/create.php ----

    @Test
    void developerCreatesTokenWithSessionAndCsrfAndItWorksAtUserinfo() {
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        String csrf = web.csrfFrom("/dashboard/developer.php");

        var response = web.postForm("/api/tokens/create.php", Map.of("name", "  Mi juego  ", "_csrf", csrf));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        JsonNode body = json(response);
        assertThat(body.propertyNames()).containsExactly("ok", "token");
        assertThat(body.get("ok").asBoolean()).isTrue();
        String token = body.get("token").asString();
        assertThat(token).matches("[0-9a-f]{64}");
        assertThat(jdbc.queryForObject("select name from api_tokens where token_digest = ?", String.class,
                Secrets.sha256Hex(token))).isEqualTo("Mi juego");

        var info = userinfo("Authorization", "Bearer " + token);
        assertThat(info.statusCode()).isEqualTo(200);
        assertThat(json(info).get("user").get("correo").asString()).isEqualTo("dev@example.com");
    }

    @Test
    void csrfTokenMayComeAsHeader() {
        var web = new WebClient(port);
        web.login("admin@example.com", "admin-demo-password");
        String csrf = web.csrfFrom("/dashboard/developer.php");

        var response = web.postForm("/api/tokens/create.php", Map.of("name", "cabecera"), "X-CSRF-TOKEN", csrf);

        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void createWithoutSessionThen401() {
        assertApiError(new WebClient(port).postForm("/api/tokens/create.php", Map.of("name", "x")), 401,
                "Sesión no iniciada");
    }

    @Test
    void createWithBearerTokenInsteadOfSessionThen401() {
        String token = tokens.createPersonal(newUser(Role.DEVELOPER_API, "Bea").getId(), "t").value();
        assertApiError(new WebClient(port).postForm("/api/tokens/create.php", Map.of("name", "x"), "Authorization",
                "Bearer " + token), 401, "Sesión no iniciada");
    }

    @Test
    void createAsPlainUserThen403() {
        var web = new WebClient(port);
        web.login("user@example.com", "user-demo-password");
        String csrf = web.csrfFrom("/");

        assertApiError(web.postForm("/api/tokens/create.php", Map.of("name", "x", "_csrf", csrf)), 403,
                "Permiso denegado");
        assertApiError(web.postForm("/api/tokens/create.php", Map.of("name", "x")), 403, "Permiso denegado");
    }

    @Test
    void createWithoutOrWithWrongCsrfThen403() {
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");

        assertApiError(web.postForm("/api/tokens/create.php", Map.of("name", "x")), 403, "Token CSRF inválido");
        assertApiError(web.postForm("/api/tokens/create.php", Map.of("name", "x", "_csrf", "forged")), 403,
                "Token CSRF inválido");
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "   ", "MISSING" })
    void createWithoutNameThen400(String name) {
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        String csrf = web.csrfFrom("/dashboard/developer.php");
        Map<String, String> form = "MISSING".equals(name) ? Map.of("_csrf", csrf) : Map.of("_csrf", csrf, "name", name);

        assertApiError(web.postForm("/api/tokens/create.php", form), 400, "Falta el parámetro name");
    }

    @Test
    void createWithNameOver100CharactersThen400() {
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        String csrf = web.csrfFrom("/dashboard/developer.php");

        assertApiError(web.postForm("/api/tokens/create.php", Map.of("_csrf", csrf, "name", "n".repeat(101))), 400,
                "name demasiado largo");
        assertThat(web.postForm("/api/tokens/create.php", Map.of("_csrf", csrf, "name", "n".repeat(100))).statusCode())
                .isEqualTo(200);
    }

    @Test
    void unknownApiPathAnswersJsonNotFound() {
        assertApiError(new WebClient(port).get("/api/nothing.php", "Authorization",
                "Bearer " + tokens.createPersonal(newUser(Role.ADMIN, "Nf").getId(), "t").value()), 404,
                "Recurso no encontrado");
    }

    @Test
    void wrongMethodOnUserinfoAnswersJson405() {
        String token = tokens.createPersonal(newUser(Role.DEVELOPER_API, "M").getId(), "t").value();
        var response = new WebClient(port).postForm("/api/userinfo.php", Map.of(), "Authorization", "Bearer " + token);

        assertApiError(response, 405, "Método no permitido");
        assertThat(response.headers().firstValue("Allow")).hasValue("GET");
    }

    @Test
    void userinfoAnswersInOnePieceWithItsLength() {
        var owner = newUser(Role.USER, "Ñandú \"el\" rápido");
        String token = tokens.createPersonal(owner.getId(), "game").value();
        byte[] request = RawHttp.request("GET", "/api/userinfo.php",
                ("Authorization: Bearer " + token + "\r\nConnection: close\r\n").getBytes(StandardCharsets.ISO_8859_1), null);

        var response = RawHttp.send(port, request);

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"ok\":true,\"user\":{\"id\":" + owner.getId()
                + ",\"primer_nombre\":\"Ñandú \\\"el\\\" rápido\",\"correo\":\"" + owner.getCorreo() + "\",\"rol\":\"user\"}}");
        assertThat(response.headers()).containsEntry("content-length",
                String.valueOf(response.body().getBytes(StandardCharsets.UTF_8).length));
        assertThat(response.headers()).doesNotContainKey("transfer-encoding");
        assertThat(response.headers()).containsEntry("cache-control", "no-store");
    }
}
