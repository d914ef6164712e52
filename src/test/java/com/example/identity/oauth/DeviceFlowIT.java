package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationGrantError;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationRequest;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationResponse;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationSuccessResponse;
import com.nimbusds.oauth2.sdk.device.DeviceCodeGrant;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;

import tools.jackson.databind.JsonNode;

/**
 * The device flow (RFC 8628, decisions §16) over real HTTP: a console application of type
 * {@code dispositivo} starts at {@code /oauth/device.php}, a player approves or denies at {@code /activar}
 * in their browser session, the console polls {@code /oauth/token.php}. The console is the Nimbus OAuth
 * 2.0 SDK's device authorization and device code grant requests; the rules are also checked byte for byte.
 */
class DeviceFlowIT extends OAuthTestBase {

    static final String GRANT = "urn:ietf:params:oauth:grant-type:device_code";
    static final String USER_CODE = "[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}";

    @Autowired
    ApiTokenService tokens;

    /** A console application, registered as a developer registers one: no secret, no redirect URI. */
    ClientService.NewCredentials console() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        return clients.register(owner, "Consola de prueba", null, List.of(), ClientType.DEVICE);
    }

    static HttpResponse<String> start(String clientId, String scope) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("client_id", clientId);
        if (scope != null) {
            form.put("scope", scope);
        }
        return new WebClient(ISSUER).postForm("/oauth/device.php", form);
    }

    static HttpResponse<String> poll(String clientId, String deviceCode) {
        return new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", GRANT,
                "device_code", deviceCode, "client_id", clientId));
    }

    /** The player's POST at /activar: a code, and a decision or none (then the confirmation page). */
    static HttpResponse<String> activar(WebClient browser, String typed, String decision, String... headers) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("user_code", typed);
        if (decision != null) {
            form.put("decision", decision);
        }
        form.put("_csrf", browser.csrfFrom("/activar"));
        return browser.postForm("/activar", form, headers);
    }

    static void assertError(HttpResponse<String> response, int status, String error, String description) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body()).isEqualTo("{\"error\":\"" + error + "\",\"error_description\":\"" + description + "\"}");
        assertThat(description).as("RFC 6749 §5.2's characters").matches(ErrorDescriptionCharactersIT.RFC6749);
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void aConsoleLogsAPlayerInThroughActivarWithNimbusThenRefreshes() throws Exception {
        var app = console();
        assertThat(app.clientSecret()).isNull();
        assertThat(app.redirectUri()).isNull();
        User player = newLoggedInUser("Jugadora");

        DeviceAuthorizationResponse started = DeviceAuthorizationResponse.parse(new DeviceAuthorizationRequest.Builder(
                new ClientID(app.clientId())).endpointURI(uri("/oauth/device.php"))
                .scope(new Scope("openid", "profile", "offline_access")).build().toHTTPRequest().send());
        assertThat(started.indicatesSuccess()).isTrue();
        DeviceAuthorizationSuccessResponse device = started.toSuccessResponse();
        String userCode = device.getUserCode().getValue();
        assertThat(userCode).matches(USER_CODE);
        assertThat(device.getVerificationURI()).isEqualTo(uri("/activar"));
        assertThat(device.getVerificationURIComplete()).isEqualTo(uri("/activar?code=" + userCode));
        assertThat(device.getLifetime()).isEqualTo(600);
        assertThat(device.getInterval()).isEqualTo(5);

        TokenRequest pollRequest = new TokenRequest(uri("/oauth/token.php"), new ClientID(app.clientId()),
                new DeviceCodeGrant(device.getDeviceCode()));
        TokenResponse pending = OIDCTokenResponseParser.parse(pollRequest.toHTTPRequest().send());
        assertThat(pending.indicatesSuccess()).isFalse();
        ErrorObject error = pending.toErrorResponse().getErrorObject();
        assertThat(error.getCode()).isEqualTo(DeviceAuthorizationGrantError.AUTHORIZATION_PENDING.getCode());
        assertThat(error.getHTTPStatusCode()).isEqualTo(400);

        // the player opens the complete URI (as from a QR code): the field is filled in; the code typed in
        // lower case and without its dash is the same code
        HttpResponse<String> page = player.browser().get("/activar?code=" + userCode);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("name=\"user_code\" value=\"" + userCode + "\"");
        HttpResponse<String> confirm = activar(player.browser(), userCode.replace("-", "").toLowerCase(), null);
        assertThat(confirm.statusCode()).isEqualTo(200);
        assertThat(confirm.body()).contains("Consola de prueba").contains("data-scope=\"profile\"")
                .contains("data-scope=\"offline_access\"").contains("value=\"" + userCode + "\"")
                .contains("name=\"decision\" value=\"allow\"").contains("name=\"decision\" value=\"deny\"");
        HttpResponse<String> allowed = activar(player.browser(), userCode, "allow");
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.body()).contains("id=\"activate-done\"");

        // the next poll, after the interval: the tokens, with a refresh token and an id_token of the player
        jdbc.update("update device_authorizations set last_polled_at = ? where client_id = ?",
                Timestamp.from(Instant.now().minusSeconds(6)), app.clientId());
        TokenResponse tokens = OIDCTokenResponseParser.parse(pollRequest.toHTTPRequest().send());
        assertThat(tokens.indicatesSuccess()).as(() -> tokens.toErrorResponse().getErrorObject().toString()).isTrue();
        var success = (OIDCTokenResponse) tokens.toSuccessResponse();
        assertThat(success.getOIDCTokens().getRefreshToken()).isNotNull();
        var claims = new IDTokenValidator(new Issuer(ISSUER), new ClientID(app.clientId()), JWSAlgorithm.RS256,
                uri("/oauth/jwks.json").toURL()).validate(success.getOIDCTokens().getIDToken(), null);
        assertThat(claims.getSubject().getValue()).isEqualTo("user:" + player.id());
        assertThat(claims.getStringClaim("name")).isEqualTo("Jugadora");
        assertThat(claims.getDateClaim("auth_time")).isNotNull();
        assertThat(claims.getStringListClaim("amr")).containsExactly("pwd");
        HttpResponse<String> userinfo = TokenEndpointIT.userinfo(success.getOIDCTokens().getAccessToken().getValue());
        assertThat(userinfo.statusCode()).isEqualTo(200);
        assertThat(json(userinfo).get("user").get("id").asLong()).isEqualTo(player.id());

        // the device code is spent
        assertError(poll(app.clientId(), device.getDeviceCode().getValue()), 400, "invalid_grant",
                "device_code invalido o ya utilizado");

        // the console keeps the player logged in: a refresh with its client_id alone, rotated
        TokenResponse refreshed = OIDCTokenResponseParser.parse(new TokenRequest(uri("/oauth/token.php"),
                new ClientID(app.clientId()), new RefreshTokenGrant(success.getOIDCTokens().getRefreshToken()))
                .toHTTPRequest().send());
        assertThat(refreshed.indicatesSuccess()).isTrue();
        var again = (OIDCTokenResponse) refreshed.toSuccessResponse();
        assertThat(again.getOIDCTokens().getRefreshToken()).isNotEqualTo(success.getOIDCTokens().getRefreshToken());
        assertThat(JWTParser.parse(again.getOIDCTokens().getIDTokenString()).getJWTClaimsSet().getSubject())
                .isEqualTo("user:" + player.id());

        // approving was consenting: listed at /cuenta/aplicaciones, where withdrawing ends the console's tokens
        assertThat(player.browser().get("/cuenta/aplicaciones").body()).contains("data-client-id=\"" + app.clientId() + "\"");
    }

    @Test
    void theDeviceAuthorizationAnswerIsExactlyRfc8628s() {
        var app = console();
        HttpResponse<String> response = start(app.clientId(), "openid");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        JsonNode body = json(response);
        List<String> names = new ArrayList<>(body.propertyNames());
        assertThat(names).containsExactly("device_code", "user_code", "verification_uri", "verification_uri_complete",
                "expires_in", "interval");
        assertThat(body.get("device_code").asString()).matches("[A-Za-z0-9_-]{43}");
        String userCode = body.get("user_code").asString();
        assertThat(userCode).matches(USER_CODE);
        assertThat(body.get("verification_uri").asString()).isEqualTo(ISSUER + "/activar");
        assertThat(body.get("verification_uri_complete").asString()).isEqualTo(ISSUER + "/activar?code=" + userCode);
        assertThat(body.get("expires_in").asInt()).isEqualTo(600);
        assertThat(body.get("interval").asInt()).isEqualTo(5);
        // the codes are kept as digests only
        String stored = jdbc.queryForObject("select device_code_digest || ' ' || user_code_digest from device_authorizations "
                + "where client_id = ?", String.class, app.clientId());
        assertThat(stored).doesNotContain(body.get("device_code").asString()).doesNotContain(userCode.replace("-", ""))
                .matches("[0-9a-f]{64} [0-9a-f]{64}");
    }

    @Test
    void onlyADeviceApplicationMayStartAndItsRequestsAreChecked() {
        var web = newClient();
        HttpResponse<String> withSecret = new WebClient(ISSUER).postForm("/oauth/device.php",
                Map.of("client_id", web.clientId(), "client_secret", web.clientSecret()));
        assertError(withSecret, 400, "unauthorized_client",
                "El flujo de dispositivo es solo para aplicaciones de tipo dispositivo");
        assertError(start("no-existe", null), 401, "invalid_client", "Faltan las credenciales del cliente");

        var app = console();
        assertError(start(app.clientId(), "openid juegos"), 400, "invalid_scope",
                "Alcance desconocido: se admiten openid, email, profile y offline_access");
        HttpResponse<String> get = new WebClient(ISSUER).get("/oauth/device.php?client_id=" + app.clientId());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");
        // the grant: its parameter, and only for device applications
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", GRANT,
                "client_id", app.clientId())), 400, "invalid_request", "Falta el parametro device_code");
        String deviceCode = json(start(app.clientId(), null)).get("device_code").asString();
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", GRANT,
                "device_code", deviceCode, "client_id", web.clientId(), "client_secret", web.clientSecret())),
                400, "unauthorized_client", "El flujo de dispositivo es solo para aplicaciones de tipo dispositivo");
        assertError(poll(app.clientId(), "not-a-device-code"), 400, "invalid_grant", "device_code invalido o ya utilizado");
        // another device application's code is not this one's
        assertError(poll(console().clientId(), deviceCode), 400, "invalid_grant", "device_code invalido o ya utilizado");
    }

    @Test
    void pollingFasterThanTheIntervalIsSlowDownAndTheIntervalGrowsByFiveSeconds() {
        var app = console();
        String deviceCode = json(start(app.clientId(), "openid")).get("device_code").asString();
        assertError(poll(app.clientId(), deviceCode), 400, "authorization_pending",
                "El usuario aun no ha autorizado el dispositivo");
        assertError(poll(app.clientId(), deviceCode), 400, "slow_down",
                "Consultas demasiado seguidas: espera 10 segundos entre una y otra");
        assertError(poll(app.clientId(), deviceCode), 400, "slow_down",
                "Consultas demasiado seguidas: espera 15 segundos entre una y otra");
        // a console that waited 10 s while the interval is 15 s is still too fast
        jdbc.update("update device_authorizations set last_polled_at = ? where client_id = ?",
                Timestamp.from(Instant.now().minusSeconds(10)), app.clientId());
        assertError(poll(app.clientId(), deviceCode), 400, "slow_down",
                "Consultas demasiado seguidas: espera 20 segundos entre una y otra");
        // one that waited the whole interval is not
        jdbc.update("update device_authorizations set last_polled_at = ? where client_id = ?",
                Timestamp.from(Instant.now().minusSeconds(20)), app.clientId());
        assertError(poll(app.clientId(), deviceCode), 400, "authorization_pending",
                "El usuario aun no ha autorizado el dispositivo");
    }

    @Test
    void aDeniedDeviceGetsAccessDenied() {
        var app = console();
        JsonNode started = json(start(app.clientId(), "openid"));
        User player = newLoggedInUser("Jugador");
        HttpResponse<String> denied = activar(player.browser(), started.get("user_code").asString(), "deny");
        assertThat(denied.statusCode()).isEqualTo(200);
        assertThat(denied.body()).contains("id=\"activate-denied\"");
        assertError(poll(app.clientId(), started.get("device_code").asString()), 400, "access_denied",
                "El usuario ha rechazado la autorizacion");
        // the code was used: it cannot be approved afterwards
        HttpResponse<String> late = activar(player.browser(), started.get("user_code").asString(), "allow");
        assertThat(late.statusCode()).isEqualTo(400);
        assertThat(late.body()).contains("Código incorrecto o caducado.");
        assertError(poll(app.clientId(), started.get("device_code").asString()), 400, "access_denied",
                "El usuario ha rechazado la autorizacion");
    }

    @Test
    void anExpiredDeviceCodeGetsExpiredTokenAndItsUserCodeIsRefused() {
        var app = console();
        JsonNode started = json(start(app.clientId(), "openid"));
        jdbc.update("update device_authorizations set expires_at = ? where client_id = ?",
                Timestamp.from(Instant.now().minusSeconds(1)), app.clientId());
        User player = newLoggedInUser("Jugador");
        HttpResponse<String> late = activar(player.browser(), started.get("user_code").asString(), null);
        assertThat(late.statusCode()).isEqualTo(400);
        assertThat(late.body()).contains("Código incorrecto o caducado.");
        assertError(poll(app.clientId(), started.get("device_code").asString()), 400, "expired_token",
                "El device_code ha caducado: empieza de nuevo en /oauth/device.php");
    }

    @Test
    void concurrentPollsOfAnApprovedCodeGetTheTokensOnce() throws Exception {
        var app = console();
        JsonNode started = json(start(app.clientId(), "openid"));
        User player = newLoggedInUser("Jugador");
        assertThat(activar(player.browser(), started.get("user_code").asString(), "allow").statusCode()).isEqualTo(200);
        String deviceCode = started.get("device_code").asString();
        List<Callable<Integer>> polls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            polls.add(() -> poll(app.clientId(), deviceCode).statusCode());
        }
        var pool = Executors.newFixedThreadPool(8);
        try {
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : pool.invokeAll(polls)) {
                statuses.add(f.get());
            }
            assertThat(statuses).filteredOn(s -> s == 200).hasSize(1);
            assertThat(statuses).filteredOn(s -> s == 400).hasSize(7);
        }
        finally {
            pool.shutdownNow();
        }
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where client_id = ?", Integer.class, app.clientId()))
                .isEqualTo(1);
    }

    @Test
    void wrongUserCodesAreThrottledPerAddressAndPerAccount() {
        var app = console();
        String userCode = json(start(app.clientId(), "openid")).get("user_code").asString();
        User guesser = newLoggedInUser("Adivina");
        String address = freshAddress();
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> wrong = activar(guesser.browser(), "BBBB-BBB" + "CDFGHJKLMN".charAt(i), "allow",
                    "X-Forwarded-For", address);
            assertThat(wrong.statusCode()).as("guess %d", i + 1).isEqualTo(400);
        }
        // the 11th is refused before any lookup, even with the right code
        HttpResponse<String> blocked = activar(guesser.browser(), userCode, "allow", "X-Forwarded-For", address);
        assertThat(blocked.statusCode()).isEqualTo(429);
        assertThat(blocked.headers().firstValue("Retry-After")).hasValueSatisfying(
                v -> assertThat(Long.parseLong(v)).isBetween(1L, 600L));
        assertThat(blocked.body()).contains("Demasiados códigos incorrectos.");
        // the same account from another address: its own budget is spent too
        assertThat(activar(guesser.browser(), userCode, "allow", "X-Forwarded-For", "203.0.113.7").statusCode())
                .isEqualTo(429);
        // another account from the same address: the address's budget is spent
        User other = newLoggedInUser("Otra");
        assertThat(activar(other.browser(), userCode, "allow", "X-Forwarded-For", address).statusCode()).isEqualTo(429);
        // and the code itself was never approved
        assertThat(jdbc.queryForObject("select status from device_authorizations where client_id = ?", String.class,
                app.clientId())).isEqualTo("PENDING");
    }

    /**
     * {@code count} wrong guesses at /activar at once, each by {@code guessers[i % guessers.length]} from
     * {@code address}; the statuses answered.
     */
    static List<Integer> guessInParallel(List<User> guessers, String address, int count) throws Exception {
        Map<User, String> csrf = new LinkedHashMap<>();
        guessers.forEach(g -> csrf.put(g, g.browser().csrfFrom("/activar")));
        var ready = new java.util.concurrent.CountDownLatch(count);
        List<Callable<HttpResponse<String>>> guesses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            User guesser = guessers.get(i % guessers.size());
            String code = "BBBB-" + "CDFG".charAt(i % 4) + "HJK".charAt(i / 4 % 3) + "LMNP".charAt(i / 12 % 4) + "QRST".charAt(i / 48 % 4);
            guesses.add(() -> {
                ready.countDown();
                ready.await();
                return guesser.browser().postForm("/activar", Map.of("user_code", code, "decision", "allow",
                        "_csrf", csrf.get(guesser)), "X-Forwarded-For", address);
            });
        }
        var pool = Executors.newFixedThreadPool(count);
        try {
            List<Integer> statuses = new ArrayList<>();
            for (Future<HttpResponse<String>> f : pool.invokeAll(guesses)) {
                HttpResponse<String> answer = f.get();
                statuses.add(answer.statusCode());
                // every answer is one of the two, never an error page
                assertThat(answer.body()).containsAnyOf("Código incorrecto o caducado.", "Demasiados códigos incorrectos.");
            }
            return statuses;
        }
        finally {
            pool.shutdownNow();
        }
    }

    /** An address no other test uses (each keeps its budget in the database for 10 minutes). */
    static String freshAddress() {
        var random = java.util.concurrent.ThreadLocalRandom.current();
        return "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + (1 + random.nextInt(254));
    }

    @Test
    void parallelWrongGuessesOfOneAccountEvaluateNoMoreThanTheBudget() throws Exception {
        User guesser = newLoggedInUser("Prisas");
        // 40 at once from one account and one address: exactly 10 codes looked up, 30 refused before
        List<Integer> statuses = guessInParallel(List.of(guesser), freshAddress(), 40);
        assertThat(statuses).filteredOn(s -> s == 400).hasSize(10);
        assertThat(statuses).filteredOn(s -> s == 429).hasSize(30);
        // and the account's budget is spent from any address
        assertThat(activar(guesser.browser(), "BBBB-BBBB", "allow", "X-Forwarded-For", freshAddress()).statusCode())
                .isEqualTo(429);
    }

    @Test
    void parallelWrongGuessesOfManyAccountsFromOneAddressEvaluateNoMoreThanTheAddressBudget() throws Exception {
        List<User> guessers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            guessers.add(newLoggedInUser("Banda " + i));
        }
        // 36 at once, 3 from each of 12 accounts (none of which spends its own budget of 10), one address
        List<Integer> statuses = guessInParallel(guessers, freshAddress(), 36);
        assertThat(statuses).filteredOn(s -> s == 400).hasSize(10);
        assertThat(statuses).filteredOn(s -> s == 429).hasSize(26);
    }

    @Test
    void aRightCodeCostsNothingOfTheBudget() {
        var app = console();
        String userCode = json(start(app.clientId(), "openid")).get("user_code").asString();
        User player = newLoggedInUser("Torpe");
        String address = freshAddress();
        for (int i = 0; i < 9; i++) {
            assertThat(activar(player.browser(), "BBBB-BBB" + "CDFGHJKLMN".charAt(i), null, "X-Forwarded-For", address)
                    .statusCode()).as("guess %d", i + 1).isEqualTo(400);
        }
        // the right code, typed again and again, is confirmed each time and gives its unit back
        for (int i = 0; i < 5; i++) {
            assertThat(activar(player.browser(), userCode, null, "X-Forwarded-For", address).statusCode()).isEqualTo(200);
        }
        // so one wrong guess is still left, then none
        assertThat(activar(player.browser(), "BBBB-BBBP", null, "X-Forwarded-For", address).statusCode()).isEqualTo(400);
        assertThat(activar(player.browser(), userCode, null, "X-Forwarded-For", address).statusCode()).isEqualTo(429);
    }

    @Test
    void activarNeedsALoginAndComesBackWithTheCode() {
        HttpResponse<String> anonymous = new WebClient(ISSUER).get("/activar?code=BCDF-GHJK");
        assertThat(anonymous.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(anonymous)).contains("/login/?redirect=").contains("activar");
        // a POST without the page's CSRF token is refused
        User player = newLoggedInUser("Jugador");
        HttpResponse<String> forged = player.browser().postForm("/activar", Map.of("user_code", "BCDF-GHJK",
                "decision", "allow"));
        assertThat(forged.statusCode()).isEqualTo(403);
    }

    @Test
    void theManagementRouteCreatesADeviceApplicationWithNeitherSecretNorRedirectUri() {
        long developer = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        String auth = "Bearer " + tokens.createPersonal(developer, "cli " + System.nanoTime(), TokenScope.GESTION).value();
        var web = new WebClient(ISSUER);

        HttpResponse<String> created = web.postForm("/api/clients/create.php", Map.of("name", "Consola",
                "type", "dispositivo"), "Authorization", auth);

        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        JsonNode client = json(created).get("client");
        assertThat(client.get("client_secret").isNull()).isTrue();
        assertThat(client.get("redirect_uri").isNull()).isTrue();
        assertThat(client.get("type").asString()).isEqualTo("dispositivo");
        JsonNode listed = json(web.get("/api/clients/list.php", "Authorization", auth)).get("clients");
        assertThat(listed.toString()).contains("\"client_id\":\"" + client.get("client_id").asString() + "\"");
        ApiAssertions.assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "Consola",
                "redirect_uri", "https://juego.example/cb", "type", "dispositivo"), "Authorization", auth), 400,
                "Una aplicación de tipo dispositivo no tiene redirect_uri");
        // and it starts the device flow at once
        assertThat(start(client.get("client_id").asString(), "openid").statusCode()).isEqualTo(200);
    }

    @Test
    void discoveryAnnouncesTheDeviceFlow() {
        JsonNode doc = json(new WebClient(ISSUER).get("/.well-known/openid-configuration"));
        assertThat(doc.get("device_authorization_endpoint").asString()).isEqualTo(ISSUER + "/oauth/device.php");
        assertThat(doc.get("grant_types_supported").toString()).contains(GRANT);
        assertThat(doc.get("token_endpoint_auth_methods_supported").toString()).contains("\"none\"");
    }
}
