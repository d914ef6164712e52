package com.example.identity.migration;

import static com.example.identity.migration.OldSystemExport.CLIENT_SECRET;
import static com.example.identity.migration.OldSystemExport.DEV_PASSWORD;
import static com.example.identity.migration.OldSystemExport.PLAYER_PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.common.CacheInvalidation;
import com.example.identity.crypto.Secrets;
import com.example.identity.support.Cluster;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The import from the old system, then the imported accounts, tokens and applications at work. */
@IntegrationTest
class LegacyImportIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String INVALID_TOKEN = "{\"ok\":false,\"error\":\"Token inválido o revocado\"}";

    @LocalServerPort
    int port;

    @Autowired
    LegacyImport importer;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    AccountService accounts;

    @Autowired
    com.example.identity.account.AccountDeletion deletion;

    @Test
    void anImportedGameTokenWorksAtUserinfoWithTheSameIdAndNewAccountsContinueAfterTheHighestId() {
        var old = new OldSystemExport(jdbc);
        ImportReport report = importer.run(old.all(false, false), "operadora");

        assertThat(report.problems()).isEmpty();
        assertThat(report.wasWritten()).isTrue();
        assertThat(counts(report)).isEqualTo("users 3: +3 ~0 =0; clients 1: +1 ~0 =0; tokens 3: +3 ~0 =0");
        var web = new WebClient(port);
        HttpResponse<String> userinfo = web.get("/api/userinfo.php", "Authorization", "Bearer " + old.gameToken);
        assertThat(userinfo.statusCode()).isEqualTo(200);
        assertThat(userinfo.body()).isEqualTo("{\"ok\":true,\"user\":{\"id\":" + old.devId
                + ",\"primer_nombre\":\"Diego Viejo\",\"correo\":\"" + old.devEmail + "\",\"rol\":\"developer_api\"}}");
        for (String refused : List.of(old.revokedToken, old.expiredToken)) {
            HttpResponse<String> response = web.get("/api/userinfo.php", "Authorization", "Bearer " + refused);
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.body()).isEqualTo(INVALID_TOKEN);
        }
        // the token only as its digest and prefix, a personal token of its owner
        var stored = jdbc.queryForMap("select user_id, name, prefix, kind, personal_scope from api_tokens where token_digest = ?",
                Secrets.sha256Hex(old.gameToken));
        // the old system's tokens could do everything: gestion, unless the line says otherwise
        assertThat(List.of(stored.get("user_id"), stored.get("name"), stored.get("prefix"), stored.get("kind"),
                stored.get("personal_scope"))).containsExactly(old.devId, "juego", old.gameToken.substring(0, 8), "personal",
                        "gestion");
        assertThat(jdbc.queryForObject("select personal_scope from api_tokens where token_digest = ?", String.class,
                Secrets.sha256Hex(old.expiredToken))).isEqualTo("perfil");
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where token_digest = ? or prefix = ?", Long.class,
                old.gameToken, old.gameToken)).isZero();
        assertThat(jdbc.queryForObject("select secret_digest from oauth_clients where client_id = ?", String.class,
                old.clientId)).isEqualTo(Secrets.sha256Hex(CLIENT_SECRET));
        // e-mail addresses stored lower-cased, as the service's own
        assertThat(jdbc.queryForObject("select correo from users where id = ?", String.class, old.playerId))
                .isEqualTo(old.playerEmail);
        assertThat(jdbc.queryForObject("select enabled from users where id = ?", Boolean.class, old.disabledId)).isFalse();

        var created = accounts.create("Nueva", "new-" + old.tag + "@example.com", "a-new-password-123", Role.USER);
        assertThat(created.getId()).isEqualTo(old.disabledId + 1);

        var audit = jdbc.queryForMap("select actor, subject, address from audit_events where event = 'IMPORT_COMPLETED' "
                + "order by id desc limit 1");
        assertThat(audit.get("actor")).isEqualTo("os:operadora");
        assertThat(audit.get("subject")).isEqualTo("users: +3 ~0 =0; clients: +1 ~0 =0; tokens: +3 ~0 =0");
        assertThat(audit.get("address")).isNull();
    }

    @Test
    void anImportedApplicationCompletesTheCodeFlowWithItsOldSecretAndTheIdTokenCarriesTheOldId() {
        var old = new OldSystemExport(jdbc);
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        assertThat(storedHash(old.devId)).isEqualTo("{bcrypt}" + old.devHash).startsWith("{bcrypt}$2y$10$");

        var browser = new WebClient(port);
        assertThat(browser.login(old.devEmail, DEV_PASSWORD).statusCode()).isEqualTo(302);
        // the $2y$ bcrypt hash verified, and the first login stored an Argon2id hash of the same password
        assertThat(storedHash(old.devId)).startsWith("{argon2}$argon2id$v=19$m=12288,t=3,p=1$");
        assertThat(new WebClient(port).login(old.devEmail, DEV_PASSWORD).statusCode()).isEqualTo(302);

        HttpResponse<String> authorize = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of(
                "response_type", "code", "client_id", old.clientId, "redirect_uri", old.redirectUri,
                "scope", "openid email", "state", "st-1", "nonce", "n-1")));
        assertThat(authorize.statusCode()).isEqualTo(302);
        String location = WebClient.location(authorize);
        assertThat(location).startsWith(old.redirectUri + "?");
        var query = UriComponentsBuilder.fromUriString(location).build().getQueryParams();
        assertThat(query.getFirst("state")).isEqualTo("st-1");

        Map<String, String> form = OAuthForms.codeExchange(query.getFirst("code"), old.redirectUri, old.clientId,
                "not-the-secret");
        HttpResponse<String> wrong = new WebClient(port).postForm("/oauth/token.php", form);
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).isEqualTo("{\"error\":\"client_secret incorrecto\"}");

        form.put("client_secret", CLIENT_SECRET);
        HttpResponse<String> token = new WebClient(port).postForm("/oauth/token.php", form);
        assertThat(token.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(token.body());
        JsonNode claims = JSON.readTree(new String(Base64.getUrlDecoder().decode(body.get("id_token").stringValue().split("\\.")[1]),
                StandardCharsets.UTF_8));
        assertThat(claims.get("sub").stringValue()).isEqualTo("user:" + old.devId);
        JsonNode aud = claims.get("aud");
        assertThat((aud.isArray() ? aud.get(0) : aud).stringValue()).isEqualTo(old.clientId);
        assertThat(claims.get("email").stringValue()).isEqualTo(old.devEmail);
        HttpResponse<String> userinfo = new WebClient(port).get("/api/userinfo.php", "Authorization",
                "Bearer " + body.get("access_token").stringValue());
        assertThat(userinfo.body()).contains("\"id\":" + old.devId + ",");
    }

    @Test
    void importedApplicationsAreFirstPartyUnlessTheExportSaysOtherwise() {
        var old = new OldSystemExport(jdbc);
        String thirdParty = old.clientId + "-3p";
        String line = OldSystemExport.client(thirdParty, CLIENT_SECRET, "Socio", old.devId, old.redirectUri + "/3p", false)
                .replace("}", ",\"first_party\":false}");
        var options = new ImportOptions(old.users(), old.tokens(),
                old.write("clients.jsonl", java.util.List.of(old.clientLine(false), line)), false, false);

        assertThat(importer.run(options, "op").problems()).isEmpty();

        assertThat(jdbc.queryForObject("select first_party from oauth_clients where client_id = ?", Boolean.class,
                old.clientId)).isTrue();
        assertThat(jdbc.queryForObject("select first_party from oauth_clients where client_id = ?", Boolean.class,
                thirdParty)).isFalse();
        var browser = new WebClient(port);
        assertThat(browser.login(old.devEmail, DEV_PASSWORD).statusCode()).isEqualTo(302);
        HttpResponse<String> authorize = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of(
                "response_type", "code", "client_id", thirdParty, "redirect_uri", old.redirectUri + "/3p",
                "scope", "openid", "state", "s")));
        assertThat(WebClient.location(authorize)).contains("/oauth/consent?request=");
    }

    @Test
    void anImportedArgon2iPasswordLogsInIsRehashedAndAReimportLeavesTheNewHashAlone() {
        var old = new OldSystemExport(jdbc);
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        assertThat(storedHash(old.playerId)).isEqualTo("{argon2-imported}" + old.playerHash).startsWith("{argon2-imported}$argon2i$");

        HttpResponse<String> failed = new WebClient(port).login(old.playerEmail, "not-the-password");
        assertThat(WebClient.location(failed)).startsWith("/login/?error=1");
        assertThat(storedHash(old.playerId)).isEqualTo("{argon2-imported}" + old.playerHash);

        HttpResponse<String> login = new WebClient(port).login(old.playerEmail, PLAYER_PASSWORD);
        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(login)).isEqualTo("/");
        String rehashed = storedHash(old.playerId);
        assertThat(rehashed).startsWith("{argon2}$argon2id$v=19$m=12288,t=3,p=1$");

        // the old system still holds the old hash: the same password, so nothing to change
        ImportReport again = importer.run(old.all(false, false), "op");
        assertThat(again.problems()).isEmpty();
        assertThat(counts(again)).isEqualTo("users 3: +0 ~0 =3; clients 1: +0 ~0 =1; tokens 3: +0 ~0 =3");
        assertThat(storedHash(old.playerId)).isEqualTo(rehashed);
        assertThat(new WebClient(port).login(old.playerEmail, PLAYER_PASSWORD).statusCode()).isEqualTo(302);
    }

    @Test
    void correoVerificadoIsOptionalFalseWhenAbsentAndAnUpdateChangesItAndWhatTheTokensSay() {
        var old = new OldSystemExport(jdbc);
        String verified = old.devLine().replace("}", ",\"correo_verificado\":true}");
        String unverified = old.playerLine().replace("}", ",\"correo_verificado\":false}");
        var first = new ImportOptions(old.write("users.jsonl", List.of(verified, unverified, old.disabledLine(false))),
                null, null, false, false);
        assertThat(importer.run(first, "op").problems()).isEmpty();
        assertThat(verifiedFlags(old)).isEqualTo(List.of(true, false, false));
        // the game token of the player (imported first without the field) shows the claim's source at UserInfo
        var update = new ImportOptions(old.write("users.jsonl", List.of(old.devLine(), old.playerLine().replace("}",
                ",\"correo_verificado\":true}"), old.disabledLine(false))), null, null, false, true);
        ImportReport report = importer.run(update, "op");
        assertThat(report.problems()).isEmpty();
        assertThat(counts(report)).isEqualTo("users 3: +0 ~2 =1");
        assertThat(verifiedFlags(old)).isEqualTo(List.of(false, true, false));
        var bad = new ImportOptions(old.write("users.jsonl", List.of(old.devLine().replace("}",
                ",\"correo_verificado\":\"si\"}"))), null, null, true, true);
        assertThat(importer.run(bad, "op").problems().toString()).contains("correo_verificado").contains("debe ser true o false");
    }

    private List<Boolean> verifiedFlags(OldSystemExport old) {
        return List.of(old.devId, old.playerId, old.disabledId).stream()
                .map(id -> jdbc.queryForObject("select email_verified from users where id = ?", Boolean.class, id))
                .toList();
    }

    @Test
    void importingTheSameFilesAgainChangesNothing() {
        var old = new OldSystemExport(jdbc);
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        String before = snapshot(old);

        ImportReport again = importer.run(old.all(false, false), "op");
        ImportReport withUpdate = importer.run(old.all(false, true), "op");

        for (ImportReport report : List.of(again, withUpdate)) {
            assertThat(report.problems()).isEmpty();
            assertThat(counts(report)).isEqualTo("users 3: +0 ~0 =3; clients 1: +0 ~0 =1; tokens 3: +0 ~0 =3");
        }
        assertThat(snapshot(old)).isEqualTo(before);
    }

    @Test
    void theIdOfADeletedAccountIsNeverImportedAgain() {
        var old = new OldSystemExport(jdbc);
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        assertThat(deletion.delete(old.playerId, new com.example.identity.account.Caller(admin, true)))
                .isEqualTo(com.example.identity.account.AccountDeletion.Outcome.DELETED);

        ImportReport again = importer.run(new ImportOptions(old.write("users.jsonl", List.of(old.playerLine())), null, null,
                false, true), "op");
        assertThat(again.problems()).extracting(Object::toString).containsExactly(
                "users:1: id: el usuario " + old.playerId + " fue eliminado y su id no se vuelve a usar");
        assertThat(accounts.findById(old.playerId)).isEmpty();
    }

    @Test
    void aReimportOfTheDeltaNeedsUpdateAndThenRevokesDisablesAndAddsWhatChanged() {
        var old = new OldSystemExport(jdbc);
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        String before = snapshot(old);
        String newToken = OldSystemExport.randomHex();
        List<String> tokens = new java.util.ArrayList<>(old.tokenLines(true));
        tokens.add(OldSystemExport.token(newToken, old.playerId, "nuevo", "2024-01-01T00:00:00Z", null, false));
        // the old system says the revoked token is live again: an import never un-revokes
        tokens.set(1, tokens.get(1).replace("\"revoked\":true", "\"revoked\":false"));
        var delta = new ImportOptions(
                old.write("users.jsonl", List.of(old.devLine(), old.playerLine().replace("\"enabled\":true", "\"enabled\":false"),
                        old.disabledLine(false))),
                old.write("tokens.jsonl", tokens), old.write("clients.jsonl", List.of(old.clientLine(true))), false, false);

        ImportReport refused = importer.run(delta, "op");
        assertThat(refused.problems()).extracting(Object::toString).containsExactly(
                "users:2: enabled: el usuario " + old.playerId + " ya existe en la base de datos con otros valores; --update lo actualiza",
                "clients:1: revoked: la aplicación " + old.clientId + " ya existe en la base de datos con otros valores; --update lo actualiza",
                "tokens:1: revoked: el token " + old.gameToken.substring(0, 8) + "… ya existe en la base de datos con otros valores; --update lo actualiza");
        assertThat(refused.wasWritten()).isFalse();
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(snapshot(old)).isEqualTo(before);
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where token_digest = ?", Long.class,
                Secrets.sha256Hex(newToken))).isZero();

        // the player is logged in and a game has just used one of their tokens (now cached as valid)
        var playerSession = new WebClient(port);
        assertThat(WebClient.location(playerSession.login(old.playerEmail, PLAYER_PASSWORD))).isEqualTo("/");
        assertThat(playerSession.get("/cuenta/contrasena").statusCode()).isEqualTo(200);
        String liveToken = OldSystemExport.randomHex();
        jdbc.update("insert into api_tokens (user_id, name, token_digest, prefix, kind, personal_scope, created_at) "
                + "values (?, 'en juego', ?, ?, 'personal', 'perfil', current_timestamp)", old.playerId,
                Secrets.sha256Hex(liveToken), liveToken.substring(0, 8));
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + liveToken).statusCode())
                .isEqualTo(200);

        ImportReport updated = importer.run(new ImportOptions(delta.users(), delta.tokens(), delta.clients(), false, true), "op");
        assertThat(updated.problems()).isEmpty();
        assertThat(counts(updated)).isEqualTo("users 3: +0 ~1 =2; clients 1: +0 ~1 =0; tokens 4: +1 ~1 =2");
        var web = new WebClient(port);
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + old.gameToken).body()).isEqualTo(INVALID_TOKEN);
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + old.revokedToken).body()).isEqualTo(INVALID_TOKEN);
        // the new token is the player's, whose account is now disabled: refused too
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + newToken).body()).isEqualTo(INVALID_TOKEN);
        assertThat(jdbc.queryForObject("select enabled from users where id = ?", Boolean.class, old.playerId)).isFalse();
        // disabled by the import as by the admin page: the session ends and the cached token is refused at once
        assertThat(WebClient.location(playerSession.get("/cuenta/contrasena"))).startsWith("/login/");
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + liveToken).body()).isEqualTo(INVALID_TOKEN);
        assertThat(jdbc.queryForObject("select revoked_at is not null from oauth_clients where client_id = ?", Boolean.class,
                old.clientId)).isTrue();
        assertThat(new WebClient(port).login(old.playerEmail, PLAYER_PASSWORD).statusCode()).isEqualTo(302);
        assertThat(WebClient.location(new WebClient(port).login(old.playerEmail, PLAYER_PASSWORD))).startsWith("/login/?error");
    }

    @Test
    void aTokenPresentedBeforeItsImportWorksAsSoonAsItIsImported() {
        var old = new OldSystemExport(jdbc);
        var web = new WebClient(port);
        // a game tries the new service before the import: unknown, and remembered as unknown for minutes
        HttpResponse<String> early = web.get("/api/userinfo.php", "Authorization", "Bearer " + old.gameToken);
        assertThat(early.statusCode()).isEqualTo(401);
        assertThat(early.body()).isEqualTo(INVALID_TOKEN);

        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();

        HttpResponse<String> imported = web.get("/api/userinfo.php", "Authorization", "Bearer " + old.gameToken);
        assertThat(imported.statusCode()).isEqualTo(200);
        assertThat(imported.body()).startsWith("{\"ok\":true,\"user\":{\"id\":" + old.devId + ",");
    }

    @Test
    void anUpdateRevokingAnApplicationAndATokenRefusesThemAtOnceEvenCachedAndEndsTheApplicationsRefreshTokens() {
        var old = new OldSystemExport(jdbc);
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        // the developer logs in to the old application with offline_access; a game uses their token: both
        // access tokens are now cached as valid
        var browser = new WebClient(port);
        assertThat(browser.login(old.devEmail, DEV_PASSWORD).statusCode()).isEqualTo(302);
        JsonNode issued = codeFlow(browser, old, "openid offline_access");
        String accessToken = issued.get("access_token").stringValue();
        String refreshToken = issued.get("refresh_token").stringValue();
        var web = new WebClient(port);
        for (String live : List.of(accessToken, old.gameToken)) {
            assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + live).statusCode()).isEqualTo(200);
        }

        String operator = "op-" + old.tag;
        ImportReport updated = importer.run(new ImportOptions(null, old.write("tokens.jsonl", old.tokenLines(true)),
                old.write("clients.jsonl", List.of(old.clientLine(true))), false, true), operator);

        assertThat(updated.problems()).isEmpty();
        assertThat(counts(updated)).isEqualTo("clients 1: +0 ~1 =0; tokens 3: +0 ~1 =2");
        // refused at once, not when the token cache's 30 seconds run out
        for (String revoked : List.of(accessToken, old.gameToken)) {
            HttpResponse<String> response = web.get("/api/userinfo.php", "Authorization", "Bearer " + revoked);
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.body()).isEqualTo(INVALID_TOKEN);
        }
        // the application's refresh tokens end with it, and the application is refused as revoked
        HttpResponse<String> refresh = web.postForm("/oauth/token.php", Map.of("grant_type", "refresh_token",
                "refresh_token", refreshToken, "client_id", old.clientId, "client_secret", CLIENT_SECRET));
        assertThat(refresh.statusCode()).isEqualTo(401);
        assertThat(refresh.body()).isEqualTo("{\"error\":\"client_revoked\"}");
        assertThat(jdbc.queryForObject("select revoked_at is not null from refresh_tokens where token_digest = ?",
                Boolean.class, Secrets.sha256Hex(refreshToken))).isTrue();
        // audited as the service's own revocations, by the operator
        long gameTokenId = jdbc.queryForObject("select id from api_tokens where token_digest = ?", Long.class,
                Secrets.sha256Hex(old.gameToken));
        assertThat(auditOf("os:" + operator)).containsExactly(
                "CLIENT_REVOKED " + old.clientId,
                "TOKEN_REVOKED token #" + gameTokenId + " " + old.gameToken.substring(0, 8) + "… de usuario #" + old.devId,
                "IMPORT_COMPLETED clients: +0 ~1 =0; tokens: +0 ~1 =2");
    }

    /**
     * The import runs as a process of its own (here this test's application); a running instance (a second
     * application on the same PostgreSQL database) hears of what it changed by NOTIFY at its commit, well
     * before the token cache's 30 seconds. H2 serves one instance only: there is nothing to tell.
     */
    @Test
    void anotherRunningInstanceRefusesATokenRevokedByAnUpdateAtOnce() throws Exception {
        assumeTrue(Cluster.onPostgres(), "several instances share PostgreSQL only");
        var old = new OldSystemExport(jdbc);
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        try (Cluster other = Cluster.onSharedDatabase(1)) {
            var atOther = new WebClient(other.port(0));
            var listener = other.bean(0, CacheInvalidation.class);
            await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                    .until(listener::listening);
            assertThat(listener.listening()).isTrue();
            // the game's token is cached as valid by the other instance
            assertThat(atOther.get("/api/userinfo.php", "Authorization", "Bearer " + old.gameToken).statusCode())
                    .isEqualTo(200);

            ImportReport updated = importer.run(new ImportOptions(null, old.write("tokens.jsonl", old.tokenLines(true)),
                    null, false, true), "op");

            assertThat(updated.problems()).isEmpty();
            // NOTIFY is delivered at commit; the listener polls every 250 ms
            HttpResponse<String> response = await().atMost(Duration.ofSeconds(3)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> atOther.get("/api/userinfo.php", "Authorization", "Bearer " + old.gameToken),
                            r -> r.statusCode() != 200);
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.body()).isEqualTo(INVALID_TOKEN);
        }
    }

    @Test
    void anUpdateChangingAnAddressEndsTheOldAddressSessionsRenamesThePasskeyUserAndShowsTheNewAddressAtOnce() {
        var old = new OldSystemExport(jdbc);
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        var devSession = new WebClient(port);
        assertThat(WebClient.location(devSession.login(old.devEmail, DEV_PASSWORD))).isEqualTo("/dashboard/developer.php");
        assertThat(devSession.get("/cuenta/contrasena").statusCode()).isEqualTo(200);
        // a passkey of the account: its user entity is named by the login name (passkey/)
        String entityId = "entidad-" + old.tag;
        jdbc.update("insert into user_entities (id, name, display_name) values (?, ?, ?)", entityId, old.devEmail,
                old.devEmail);
        // a game has just used the developer's token: cached with the old address
        var web = new WebClient(port);
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + old.gameToken).body())
                .contains("\"correo\":\"" + old.devEmail + "\"");

        String newEmail = "nuevo-" + old.tag + "@old.example";
        String operator = "op-" + old.tag;
        ImportReport updated = importer.run(new ImportOptions(old.write("users.jsonl", List.of(
                old.devLine().replace(old.devEmail, newEmail), old.playerLine(), old.disabledLine(false))), null, null,
                false, true), operator);

        assertThat(updated.problems()).isEmpty();
        assertThat(counts(updated)).isEqualTo("users 3: +0 ~1 =2");
        // as after a confirmed change of address: the session opened under the old address is over
        assertThat(WebClient.location(devSession.get("/cuenta/contrasena"))).startsWith("/login/");
        var entity = jdbc.queryForMap("select name, display_name from user_entities where id = ?", entityId);
        assertThat(List.of(entity.get("name"), entity.get("display_name"))).containsExactly(newEmail, newEmail);
        HttpResponse<String> userinfo = web.get("/api/userinfo.php", "Authorization", "Bearer " + old.gameToken);
        assertThat(userinfo.statusCode()).isEqualTo(200);
        assertThat(userinfo.body()).isEqualTo("{\"ok\":true,\"user\":{\"id\":" + old.devId
                + ",\"primer_nombre\":\"Diego Viejo\",\"correo\":\"" + newEmail + "\",\"rol\":\"developer_api\"}}");
        assertThat(auditOf("os:" + operator)).containsExactly(
                "EMAIL_CHANGED usuario #" + old.devId + " de " + old.devEmail + " a " + newEmail,
                "IMPORT_COMPLETED users: +0 ~1 =2");
        assertThat(WebClient.location(new WebClient(port).login(newEmail, DEV_PASSWORD))).isEqualTo("/dashboard/developer.php");
        jdbc.update("delete from user_entities where id = ?", entityId);
    }

    @Test
    void everyKindOfBadLineIsReportedWithItsLineAndNothingIsWritten() {
        var old = new OldSystemExport(jdbc);
        long demoId = jdbc.queryForObject("select id from users where correo = 'dev@example.com'", Long.class);
        long nobody = old.disabledId + 100_000;
        String good = old.devLine();
        var options = new ImportOptions(
                old.write("users.jsonl", List.of(
                        good,
                        OldSystemExport.user(old.devId, "Otro", "otro-" + old.tag + "@old.example", "user", true, old.devHash),
                        OldSystemExport.user(old.playerId, "Mayúsculas", old.devEmail.toUpperCase(), "user", true, old.devHash),
                        OldSystemExport.user(old.playerId + 1, "Rol", "rol-" + old.tag + "@old.example", "superuser", true, old.devHash),
                        OldSystemExport.user(old.playerId + 2, "Md5", "md5-" + old.tag + "@old.example", "user", true,
                                "5f4dcc3b5aa765d61d8327deb882cf99"),
                        OldSystemExport.user(old.playerId + 3, "Sha", "sha-" + old.tag + "@old.example", "user", true,
                                "sha256$sal$" + Secrets.sha256Hex("salpassword")),
                        "{\"id\": 5, \"primer_nombre\": ",
                        OldSystemExport.user(demoId, "Ocupado", "ocupado-" + old.tag + "@old.example", "user", true, old.devHash),
                        OldSystemExport.user(old.playerId + 4, "Repetido", "DEV@example.com", "user", true, old.devHash),
                        good.replace("}", ",\"edad\":40}").replace("\"id\":" + old.devId, "\"id\":" + (old.playerId + 5))
                                .replace(old.devEmail, "edad-" + old.tag + "@old.example"),
                        "",
                        OldSystemExport.user(old.playerId + 6, "", "vacio-" + old.tag + "@old.example", "user", true, old.devHash),
                        OldSystemExport.user(old.playerId + 7, "Correo", "no-es-un-correo", "user", true, old.devHash))),
                old.write("tokens.jsonl", List.of(
                        OldSystemExport.token(old.gameToken.toUpperCase(), old.devId, "mayúsculas", "2024-01-01T00:00:00Z", null, false),
                        OldSystemExport.token(old.revokedToken, nobody, "sin dueño", "2024-01-01T00:00:00Z", null, false),
                        OldSystemExport.token(old.gameToken.substring(1), old.devId, "corto", "2024-01-01T00:00:00Z", null, false),
                        OldSystemExport.token(old.gameToken, old.devId, "bueno", "2024-01-01T00:00:00Z", null, false),
                        OldSystemExport.token(old.gameToken, old.devId, "otra vez", "2024-01-01T00:00:00Z", null, false),
                        OldSystemExport.token(old.expiredToken, old.devId, "fecha", "ayer", null, false),
                        OldSystemExport.token(OldSystemExport.randomHex(), old.devId, "revocado", "2024-01-01T00:00:00Z", null, false)
                                .replace("\"revoked\":false", "\"revoked\":\"no\""),
                        OldSystemExport.token(OldSystemExport.randomHex(), old.devId, "alcance", "2024-01-01T00:00:00Z", null, false)
                                .replace("}", ",\"scope\":\"todo\"}"))),
                old.write("clients.jsonl", List.of(
                        OldSystemExport.client("c1-" + old.tag, "s", "Http", old.devId, "http://evil.example/cb", false),
                        OldSystemExport.client("c2-" + old.tag, "s", "Fragmento", old.devId, "https://app.example/cb#x", false),
                        OldSystemExport.client("c3-" + old.tag, "s", "Sin dueño", nobody, "https://app.example/cb", false),
                        "[1, 2]",
                        OldSystemExport.client("c 5", "s", "Espacio", old.devId, "https://app.example/cb", false),
                        old.clientLine(false))),
                false, false);
        Map<String, Long> before = rowCounts();

        ImportReport report = importer.run(options, "op");

        assertThat(report.problems()).extracting(p -> p.file() + ":" + p.line() + ": " + p.field()).containsExactlyInAnyOrder(
                "users:2: id", "users:3: correo", "users:4: rol", "users:5: password_hash", "users:6: password_hash",
                "users:7: (línea)", "users:8: id", "users:9: correo", "users:10: edad", "users:12: primer_nombre",
                "users:13: correo",
                "tokens:1: token", "tokens:2: user_id", "tokens:3: token", "tokens:5: token", "tokens:6: created_at",
                "tokens:7: revoked", "tokens:8: scope",
                "clients:1: redirect_uri", "clients:2: redirect_uri", "clients:3: user_id", "clients:4: (línea)",
                "clients:5: client_id");
        assertThat(report.problems()).extracting(Object::toString).contains(
                "users:2: id: id " + old.devId + " repetido (ya en la línea 1)",
                "users:3: correo: correo repetido (ya en la línea 1)",
                "users:4: rol: rol desconocido 'superuser' (user, developer_api o admin)",
                "users:5: password_hash: hash no reconocido (se admiten bcrypt $2y$/$2a$/$2b$, $argon2i$ y $argon2id$)",
                "users:6: password_hash: hash sha256$ salado no admitido: activa identity.import.legacy-sha256=true si el sistema anterior lo usaba",
                "users:8: id: el usuario " + demoId + " ya existe en la base de datos y no viene de una importación",
                "users:9: correo: correo ya usado por el usuario " + demoId + " de la base de datos",
                "users:10: edad: campo desconocido",
                "users:12: primer_nombre: vacío",
                "users:13: correo: correo inválido",
                "tokens:1: token: debe tener 64 caracteres hexadecimales en minúscula",
                "tokens:2: user_id: el usuario " + nobody + " no existe (ni en el fichero de usuarios ni en la base de datos)",
                "tokens:5: token: token repetido (ya en la línea 4)",
                "tokens:6: created_at: fecha inválida (ISO-8601, p. ej. 2024-05-01T10:00:00Z)",
                "tokens:7: revoked: debe ser true o false",
                "tokens:8: scope: scope inválido (perfil o gestion)",
                "clients:1: redirect_uri: redirect_uri inválido: usa https (http solo para localhost, 127.0.0.1 o [::1])",
                "clients:2: redirect_uri: redirect_uri inválido: no puede llevar fragmento (#)",
                "clients:4: (línea): se esperaba un objeto JSON",
                "clients:5: client_id: de 1 a 100 caracteres ASCII visibles, sin espacios");
        assertThat(report.problems().stream().filter(p -> p.line() == 7 && p.file().equals("users")).findFirst().orElseThrow()
                .reason()).startsWith("JSON inválido");
        assertThat(report.wasWritten()).isFalse();
        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void aHashAboveTheCostCapsIsAProblemOfItsLineAndAStoredOneNeverRunsAtLogin() {
        var old = new OldSystemExport(jdbc);
        // a real bcrypt hash with its cost set to 31: verifying it would hold a hashing thread for about a day
        String tooCostly = old.devHash.replaceFirst("^\\$2y\\$10\\$", "\\$2y\\$31\\$");
        var options = new ImportOptions(old.write("users.jsonl", List.of(old.devLine().replace(old.devHash, tooCostly),
                old.playerLine(), old.disabledLine(false))), null, null, false, false);
        Map<String, Long> before = rowCounts();

        ImportReport report = importer.run(options, "op");

        assertThat(report.problems()).extracting(Object::toString).containsExactly("users:1: password_hash: coste bcrypt 31 "
                + "por encima del máximo admitido (14); restablece esa contraseña tras el cambio");
        assertThat(report.wasWritten()).isFalse();
        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(rowCounts()).isEqualTo(before);

        // one stored before the caps existed: the login fails at once, and the hash is never computed
        assertThat(importer.run(old.all(false, false), "op").problems()).isEmpty();
        jdbc.update("update users set password_hash = ? where id = ?", "{bcrypt}" + tooCostly, old.devId);
        HttpResponse<String> login = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> new WebClient(port).login(old.devEmail, DEV_PASSWORD));
        assertThat(WebClient.location(login)).startsWith("/login/?error=1");
        assertThat(storedHash(old.devId)).isEqualTo("{bcrypt}" + tooCostly);
    }

    @Test
    void aDryRunReportsWhatItWouldDoAndWritesNothing() {
        var old = new OldSystemExport(jdbc);
        Map<String, Long> before = rowCounts();

        ImportReport dry = importer.run(old.all(true, false), "op");

        assertThat(dry.problems()).isEmpty();
        assertThat(dry.dryRun()).isTrue();
        assertThat(dry.wasWritten()).isFalse();
        assertThat(dry.exitCode()).isZero();
        assertThat(counts(dry)).isEqualTo("users 3: +3 ~0 =0; clients 1: +1 ~0 =0; tokens 3: +3 ~0 =0");
        assertThat(rowCounts()).isEqualTo(before);
        assertThat(jdbc.queryForObject("select count(*) from users where id = ?", Long.class, old.devId)).isZero();

        ImportReport real = importer.run(old.all(false, false), "op");
        assertThat(counts(real)).isEqualTo(counts(dry));
    }

    /**
     * The token response of a code flow of the imported application, the user of {@code browser} approving
     * the consent page when it asks (offline_access always does).
     */
    private JsonNode codeFlow(WebClient browser, OldSystemExport old, String scope) {
        HttpResponse<String> authorize = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of(
                "response_type", "code", "client_id", old.clientId, "redirect_uri", old.redirectUri,
                "scope", scope, "state", "s", "nonce", "n")));
        String location = WebClient.location(authorize);
        int consent = location.indexOf("/oauth/consent?");
        if (consent >= 0) {
            String page = location.substring(consent);
            String request = UriComponentsBuilder.fromUriString(page).build().getQueryParams().getFirst("request");
            HttpResponse<String> approved = browser.postForm("/oauth/consent", Map.of(
                    "request", UriUtils.decode(request, StandardCharsets.UTF_8), "decision", "allow",
                    "_csrf", WebClient.csrfOf(browser.get(page).body())));
            String back = WebClient.location(approved);
            location = WebClient.location(browser.get(back.substring(back.indexOf("/oauth/"))));
        }
        assertThat(location).startsWith(old.redirectUri + "?");
        String code = UriComponentsBuilder.fromUriString(location).build().getQueryParams().getFirst("code");
        HttpResponse<String> token = new WebClient(port).postForm("/oauth/token.php",
                OAuthForms.codeExchange(code, old.redirectUri, old.clientId, CLIENT_SECRET));
        assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
        return JSON.readTree(token.body());
    }

    /** The audit lines of {@code actor}, oldest first, as "EVENT subject". */
    private List<String> auditOf(String actor) {
        return jdbc.queryForList("select event, subject from audit_events where actor = ? order by id", actor).stream()
                .map(row -> row.get("event") + " " + row.get("subject")).toList();
    }

    private String storedHash(long id) {
        return jdbc.queryForObject("select password_hash from users where id = ?", String.class, id);
    }

    private static String counts(ImportReport report) {
        return report.counts().stream()
                .map(c -> c.file() + " " + c.lines() + ": +" + c.created() + " ~" + c.updated() + " =" + c.unchanged())
                .collect(Collectors.joining("; "));
    }

    private Map<String, Long> rowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : List.of("users", "api_tokens", "oauth_clients", "audit_events")) {
            counts.put(table, jdbc.queryForObject("select count(*) from " + table, Long.class));
        }
        return counts;
    }

    /** Every column of every row the export touches. */
    private String snapshot(OldSystemExport old) {
        return jdbc.queryForList("select * from users where id in (?, ?, ?) order by id", old.devId, old.playerId, old.disabledId)
                + "\n" + jdbc.queryForList("select * from api_tokens where user_id in (?, ?, ?) order by id", old.devId,
                        old.playerId, old.disabledId)
                + "\n" + jdbc.queryForList("select * from oauth_clients where client_id = ?", old.clientId);
    }
}
