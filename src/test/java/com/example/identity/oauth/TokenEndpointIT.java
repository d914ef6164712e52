package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import com.example.identity.crypto.Secrets;
import com.example.identity.oauth.error.TokenError;
import com.example.identity.oauth.token.AuthorizationCodeExchange;
import com.example.identity.support.WebClient;

/** Every row of the token endpoint's error table (decisions §1), with its status, body and headers. */
class TokenEndpointIT extends OAuthTestBase {

    /** The exact body {@code {"error":"..."}} and the headers every answer of this endpoint carries. */
    static void assertError(HttpResponse<String> response, int status, String error) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(response.headers().firstValue("Content-Disposition")).as("a JSON answer, not a download").isEmpty();
        assertThat(response.headers().allValues("Set-Cookie")).as("the token endpoint keeps no session").isEmpty();
        JsonNode body = json(response);
        assertThat(body.propertyNames()).containsExactly("error");
        assertThat(body.get("error").isString()).isTrue();
        assertThat(body.get("error").asString()).isEqualTo(error);
    }

    @ParameterizedTest
    @ValueSource(strings = { "GET", "PUT", "DELETE", "PATCH" })
    void methodOtherThanPostThen405WithAllow(String method) {
        var response = new WebClient(ISSUER).send(HttpRequest.newBuilder(uri("/oauth/token.php"))
                .method(method, HttpRequest.BodyPublishers.noBody()).build());

        assertError(response, 405, "Método no permitido, usa POST");
        assertThat(response.headers().firstValue("Allow")).hasValue("POST");
    }

    /**
     * Overlong fields (within the 64 KB form limit) get the error of the step that checks them, in this
     * endpoint's shape: never a 5xx, and the code is not spent by a refused verifier.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "code|10000|400|Código de autorización inválido",
            "client_id|5000|401|client_id inválido",
            "client_secret|10000|401|client_secret incorrecto",
            "redirect_uri|5000|400|redirect_uri no coincide con el registrado",
            "code_verifier|10000|400|code_verifier inválido" })
    void overlongFieldsGetTheErrorOfTheirStep(String field, int length, int status, String error) {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid");
        var form = exchangeForm(client, code);
        form.put(field, (field.equals("redirect_uri") ? client.redirectUri() : "") + "x".repeat(length));

        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), status, error);
        assertThat(exchange(client, code).statusCode()).as("the code survives the refused request").isEqualTo(200);
    }

    @Test
    void grantTypeOtherThanAuthorizationCodeThen400() {
        var client = newClient();
        var form = exchangeForm(client, "x");
        form.put("grant_type", "client_credentials");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400, "grant_type inválido");

        form.remove("grant_type");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400, "grant_type inválido");
    }

    @ParameterizedTest
    @ValueSource(strings = { "code", "redirect_uri", "client_id", "client_secret" })
    void missingParameterThen400(String missing) {
        var form = exchangeForm(newClient(), "some-code");
        form.remove(missing);
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400, "Faltan parámetros obligatorios");

        form.put(missing, "");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400, "Faltan parámetros obligatorios");
    }

    @Test
    void checksRunInTheDocumentedOrder() {
        // bad grant type and everything missing: the grant type is reported first
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", "password")), 400,
                "grant_type inválido");
        // unknown client and wrong redirect: the client is reported first
        var form = exchangeForm(newClient(), "c");
        form.put("client_id", "nope");
        form.put("redirect_uri", "https://elsewhere.example/cb");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 401, "client_id inválido");
    }

    @Test
    void unknownClientThen401() {
        var form = exchangeForm(newClient(), "c");
        form.put("client_id", "no-such-client");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 401, "client_id inválido");
    }

    @Test
    void wrongSecretThen401() {
        var form = exchangeForm(newClient(), "c");
        form.put("client_secret", Secrets.randomHex(32));
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 401, "client_secret incorrecto");
    }

    @Test
    void redirectUriOtherThanRegisteredThen400() {
        var client = newClient();
        var form = exchangeForm(client, "c");
        form.put("redirect_uri", client.redirectUri() + "/");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400,
                "redirect_uri no coincide con el registrado");
    }

    @Test
    void revokedClientThen401() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid");
        clients.revoke(client.clientId());

        assertError(exchange(client, code), 401, "client_revoked");
    }

    @Test
    void unknownCodeThen400() {
        assertError(exchange(newClient(), "not-a-code"), 400, "Código de autorización inválido");
    }

    @Test
    void codeOfAnAccountDisabledSinceThen400AndNotSpent() {
        var client = newClient();
        var user = newLoggedInUser("Dina");
        String code = authorize(user.browser(), client, "openid email");
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        assertThat(administration.disable(new com.example.identity.account.Caller(admin, true), user.id())).isTrue();

        assertError(exchange(client, code), 400, "Código de autorización inválido");
        assertThat(jdbc.queryForObject("select count(*) from oauth_authorizations where code_digest = ? and code_used_at is null",
                Integer.class, Secrets.sha256Hex(code))).as("the refused exchange wrote nothing").isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where user_id = ?", Integer.class, user.id()))
                .isZero();
    }

    @Test
    void codeOfAnotherClientThen400() {
        var owner = newClient();
        var other = newClient();
        String code = authorize(loggedInDeveloper(), owner, "openid");

        assertError(exchange(other, code), 400, "Código de autorización inválido");
        assertThat(exchange(owner, code).statusCode()).isEqualTo(200);
    }

    @Test
    void usedCodeThen400AndTheFirstAccessTokenIsRevoked() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid email");
        var first = exchange(client, code);
        assertThat(first.statusCode()).isEqualTo(200);
        String accessToken = json(first).get("access_token").asString();
        assertThat(userinfo(accessToken).statusCode()).isEqualTo(200);

        assertError(exchange(client, code), 400, "Código ya utilizado");

        var refused = userinfo(accessToken);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(json(refused).get("error").asString()).isEqualTo("Token inválido o revocado");
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'CODE_REUSE_DETECTED' and actor = ?",
                Integer.class, client.clientId())).as("the reuse is in the audit trail").isOne();
    }

    @Test
    void expiredCodeThen400() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid");
        jdbc.update("update oauth_authorizations set code_expires_at = ? where code_digest = ?",
                Timestamp.from(Instant.now().minusSeconds(1)), Secrets.sha256Hex(code));

        assertError(exchange(client, code), 400, "Código expirado");
    }

    @Test
    void successWithOpenidHasExactlyTheDocumentedFields() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid email profile");

        var response = exchange(client, code);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        // a client's request must not open an HTTP session (memory) nor enter the login-session registry
        assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
        JsonNode body = json(response);
        assertThat(body.propertyNames()).containsExactlyInAnyOrder("access_token", "token_type", "expires_in", "id_token");
        assertThat(body.get("access_token").asString()).matches("[0-9a-f]{64}");
        assertThat(body.get("token_type").asString()).isEqualTo("Bearer");
        assertThat(body.get("expires_in").isIntegralNumber()).isTrue();
        assertThat(body.get("expires_in").asLong()).isEqualTo(3600);
        assertThat(body.get("id_token").asString()).matches("[\\w-]+\\.[\\w-]+\\.[\\w-]+");
    }

    @Test
    void successWithoutOpenidHasNoIdToken() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "email");

        var response = exchange(client, code);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).propertyNames()).containsExactlyInAnyOrder("access_token", "token_type", "expires_in");
        assertThat(userinfo(json(response).get("access_token").asString()).statusCode()).isEqualTo(200);
    }

    @Test
    void successWithoutAnyScopeHasNoIdToken() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, null);

        var response = exchange(client, code);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).propertyNames()).containsExactlyInAnyOrder("access_token", "token_type", "expires_in");
    }

    @Test
    void clientSecretBasicIsAcceptedWithoutFormCredentials() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid");
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", client.redirectUri());

        var response = new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization",
                basic(client.clientId(), client.clientSecret()));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void clientSecretBasicWithWrongSecretThen401WithChallenge() {
        var client = newClient();
        var response = new WebClient(ISSUER).postForm("/oauth/token.php",
                Map.of("grant_type", "authorization_code", "code", "x", "redirect_uri", client.redirectUri()),
                "Authorization", basic(client.clientId(), "wrong"));

        assertError(response, 401, "client_secret incorrecto");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"oauth\"");
    }

    @Test
    void codeInQueryStringIsNotHonoured() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "openid");
        var form = exchangeForm(client, code);
        form.remove("code");

        var response = new WebClient(ISSUER).postForm("/oauth/token.php?code=" + code, form);

        assertError(response, 400, "Faltan parámetros obligatorios");
    }

    @Test
    void repeatedParameterThen400() {
        var client = newClient();
        String body = WebClient.encode(exchangeForm(client, "a")) + "&code=b";

        assertError(new WebClient(ISSUER).postRaw("/oauth/token.php", body), 400, "Parámetro repetido");
    }

    /**
     * The enum is the contract's table (decisions §1, plus the two rows this service adds, where docs/oauth-oidc.md
     * puts them), row by row, in the order the checks run: written out here, not read from the enum.
     */
    @Test
    void errorTableIsComplete() {
        List<String> contract = List.of(
                "405 Método no permitido, usa POST",
                "400 grant_type inválido",
                "400 Faltan parámetros obligatorios",
                "400 Parámetro repetido",
                "401 client_id inválido",
                "401 client_secret incorrecto",
                "400 redirect_uri no coincide con el registrado",
                "401 client_revoked",
                "400 Código de autorización inválido",
                "400 Código ya utilizado",
                "400 Código expirado",
                "500 oidc_key_missing",
                "400 code_verifier inválido",
                "500 Error interno en el servidor");
        assertThat(Stream.of(TokenError.values()).map(e -> e.status().value() + " " + e.message()).toList())
                .containsExactlyElementsOf(contract);
    }

    // Every adjacent pair of the documented order: a request that fails both checks gets the earlier one.
    // (expired before oidc_key_missing before code_verifier: SigningKeyLocationIT, which has no key.)

    @Test
    void methodComesBeforeGrantType() {
        var response = new WebClient(ISSUER).send(HttpRequest.newBuilder(uri("/oauth/token.php"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .PUT(HttpRequest.BodyPublishers.ofString("grant_type=password")).build());
        assertError(response, 405, "Método no permitido, usa POST");
    }

    @Test
    void missingParametersComeBeforeRepeatedOnes() {
        var form = exchangeForm(newClient(), "c");
        form.remove("code");
        String body = WebClient.encode(form) + "&redirect_uri=" + WebClient.encode(Map.of("x", "https://x.example")).substring(2);
        assertError(new WebClient(ISSUER).postRaw("/oauth/token.php", body), 400, "Faltan parámetros obligatorios");
    }

    @Test
    void repeatedParametersComeBeforeTheClient() {
        var form = exchangeForm(newClient(), "c");
        form.put("client_id", "no-such-client");
        assertError(new WebClient(ISSUER).postRaw("/oauth/token.php", WebClient.encode(form) + "&code=d"), 400,
                "Parámetro repetido");
    }

    @Test
    void clientComesBeforeSecret() {
        var form = exchangeForm(newClient(), "c");
        form.put("client_id", "no-such-client");
        form.put("client_secret", "wrong");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 401, "client_id inválido");
    }

    @Test
    void secretComesBeforeRedirectUri() {
        var client = newClient();
        var form = exchangeForm(client, "c");
        form.put("client_secret", "wrong");
        form.put("redirect_uri", "https://elsewhere.example/cb");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 401, "client_secret incorrecto");
    }

    @Test
    void redirectUriComesBeforeRevokedAndRevokedBeforeTheCode() {
        var client = newClient();
        clients.revoke(client.clientId());
        var form = exchangeForm(client, "not-a-code");
        form.put("redirect_uri", client.redirectUri() + "/other");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400,
                "redirect_uri no coincide con el registrado");
        assertError(exchange(client, "not-a-code"), 401, "client_revoked");
    }

    @Test
    void invalidCodeComesBeforeUsedAndUsedBeforeExpired() {
        var client = newClient();
        var other = newClient();
        String code = authorize(loggedInDeveloper(), client, "email");
        assertThat(exchange(client, code).statusCode()).isEqualTo(200);
        jdbc.update("update oauth_authorizations set code_expires_at = ? where code_digest = ?",
                Timestamp.from(Instant.now().minusSeconds(1)), Secrets.sha256Hex(code));

        assertError(exchange(other, code), 400, "Código de autorización inválido");
        assertError(exchange(client, code), 400, "Código ya utilizado");
    }

    @Test
    void expiredComesBeforeTheVerifier() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "email", Map.of("state", "s",
                "code_challenge", AuthorizationCodeExchange.s256("v".repeat(43)), "code_challenge_method", "S256"));
        jdbc.update("update oauth_authorizations set code_expires_at = ? where code_digest = ?",
                Timestamp.from(Instant.now().minusSeconds(1)), Secrets.sha256Hex(code));
        var form = exchangeForm(client, code);
        form.put("code_verifier", "w".repeat(43));
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400, "Código expirado");
    }

    /** RFC 6749 §2.3: one authentication method per request. */
    @Test
    void basicAndAFormSecretTogetherThen400Repeated() {
        var client = newClient();
        String code = authorize(loggedInDeveloper(), client, "email");
        var form = exchangeForm(client, code);
        form.remove("client_id");

        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization",
                basic(client.clientId(), client.clientSecret())), 400, "Parámetro repetido");
        form.put("client_secret", "");
        assertThat(new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization",
                basic(client.clientId(), client.clientSecret())).statusCode())
                .as("an empty form secret authenticates nothing; the code was not spent").isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = { "Basic !!!not-base64", "Basic bm9jb2xvbg==", "Basic OnNlY3JldA==" })
    void malformedBasicHeaderComesAfterMissingParameters(String header) {
        var client = newClient();
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("redirect_uri", client.redirectUri());
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization", header), 400,
                "Faltan parámetros obligatorios");

        form.put("code", "c");
        var refused = new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization", header);
        assertError(refused, 401, "client_id inválido");
        assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"oauth\"");
    }

    static String basic(String clientId, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((clientId + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    static HttpResponse<String> userinfo(String accessToken) {
        return new WebClient(ISSUER).get("/api/userinfo.php", "Authorization", "Bearer " + accessToken);
    }
}
