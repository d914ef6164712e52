package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.client.ClientService;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;

import tools.jackson.databind.JsonNode;

/**
 * {@code /oauth/revoke.php} (RFC 7009) and {@code /oauth/introspect.php} (RFC 7662), decisions §12.3, over
 * real HTTP: client authentication in both ways and its refusals in the RFCs' shape, an application revokes
 * only its own tokens, any application introspects access tokens, and ended tokens are
 * {@code {"active":false}}.
 */
class RevocationAndIntrospectionIT extends OAuthTestBase {

    static final String REVOKE = "/oauth/revoke.php";
    static final String INTROSPECT = "/oauth/introspect.php";

    @Autowired
    ApiTokenService tokens;

    ClientService.NewCredentials client;
    WebClient browser;
    long userId;

    @BeforeEach
    void loggedInUser() {
        client = newClient();
        User user = newLoggedInUser("Iker");
        userId = user.id();
        browser = user.browser();
    }

    JsonNode login(ClientService.NewCredentials app, String scope) {
        HttpResponse<String> response = exchange(app, authorize(browser, app, scope));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response);
    }

    static Map<String, String> form(ClientService.NewCredentials app, String token) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("token", token);
        form.put("client_id", app.clientId());
        form.put("client_secret", app.clientSecret());
        return form;
    }

    static HttpResponse<String> post(String path, ClientService.NewCredentials app, String token) {
        return new WebClient(ISSUER).postForm(path, form(app, token));
    }

    static String basic(ClientService.NewCredentials app) {
        return "Basic " + Base64.getEncoder().encodeToString((app.clientId() + ":" + app.clientSecret()).getBytes());
    }

    static int apiStatus(String accessToken) {
        return TokenEndpointIT.userinfo(accessToken).statusCode();
    }

    @Nested
    class Revocation {

        @Test
        void anApplicationRevokesItsAccessTokenWithBasicAuthentication() {
            String accessToken = login(client, "openid").get("access_token").asString();
            assertThat(apiStatus(accessToken)).isEqualTo(200);

            HttpResponse<String> response = new WebClient(ISSUER).postForm(REVOKE,
                    Map.of("token", accessToken, "token_type_hint", "access_token"), "Authorization", basic(client));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEmpty();
            assertThat(apiStatus(accessToken)).isEqualTo(401);
            assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'TOKEN_REVOKED_BY_CLIENT' "
                    + "and actor = ?", Integer.class, client.clientId())).isEqualTo(1);
        }

        @Test
        void revokingARefreshTokenRevokesItsFamily() {
            JsonNode tokensJson = login(client, "openid offline_access");
            String accessToken = tokensJson.get("access_token").asString();
            String refreshToken = tokensJson.get("refresh_token").asString();

            HttpResponse<String> response = post(REVOKE, client, refreshToken);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(apiStatus(accessToken)).isEqualTo(401);
            assertThat(RefreshTokenIT.refresh(client, refreshToken).statusCode()).isEqualTo(400);
        }

        @Test
        void unknownAlreadyRevokedAndWrongHintsAreAnswered200() {
            String accessToken = login(client, "openid").get("access_token").asString();

            assertThat(post(REVOKE, client, "0".repeat(64)).statusCode()).isEqualTo(200);
            assertThat(post(REVOKE, client, "not a token at all").statusCode()).isEqualTo(200);
            Map<String, String> wrongHint = form(client, accessToken);
            wrongHint.put("token_type_hint", "refresh_token");
            assertThat(new WebClient(ISSUER).postForm(REVOKE, wrongHint).statusCode()).isEqualTo(200);
            assertThat(apiStatus(accessToken)).isEqualTo(401);
            assertThat(post(REVOKE, client, accessToken).statusCode()).isEqualTo(200);
        }

        @Test
        void anotherApplicationsTokenOrAPersonalTokenIsRefusedAndStaysValid() {
            ClientService.NewCredentials other = newClient();
            String othersToken = login(other, "openid").get("access_token").asString();
            long developer = accounts.findByEmail("dev@example.com").orElseThrow().getId();
            String personal = tokens.createPersonal(developer, "juego " + UUID.randomUUID()).value();

            for (String token : new String[] { othersToken, personal }) {
                HttpResponse<String> response = post(REVOKE, client, token);
                assertThat(response.statusCode()).isEqualTo(400);
                assertThat(response.body()).isEqualTo("{\"error\":\"unauthorized_client\","
                        + "\"error_description\":\"El token no pertenece a esta aplicacion\"}");
                assertThat(apiStatus(token)).isEqualTo(200);
            }
        }
    }

    @Nested
    class Introspection {

        @Test
        void anyApplicationIntrospectsAnActiveAccessToken() {
            String accessToken = login(client, "openid email").get("access_token").asString();
            ClientService.NewCredentials gameBackEnd = newClient();

            HttpResponse<String> response = new WebClient(ISSUER).postForm(INTROSPECT, Map.of("token", accessToken),
                    "Authorization", basic(gameBackEnd));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
            JsonNode body = json(response);
            assertThat(body.get("active").asBoolean()).isTrue();
            assertThat(body.get("client_id").asString()).isEqualTo(client.clientId());
            assertThat(body.get("sub").asString()).isEqualTo("user:" + userId);
            assertThat(body.get("scope").asString().split(" ")).containsExactlyInAnyOrder("openid", "email");
            assertThat(body.get("token_type").asString()).isEqualTo("Bearer");
            assertThat(body.get("iss").asString()).isEqualTo(ISSUER);
            assertThat(body.get("exp").asLong() - body.get("iat").asLong()).isEqualTo(3600);
        }

        @Test
        void endedUnknownAndPersonalTokensAreInactive() {
            String revoked = login(client, "openid").get("access_token").asString();
            post(REVOKE, client, revoked);
            long developer = accounts.findByEmail("dev@example.com").orElseThrow().getId();
            String personal = tokens.createPersonal(developer, "juego " + UUID.randomUUID()).value();

            for (String token : new String[] { revoked, "0".repeat(64), "garbage", personal }) {
                HttpResponse<String> response = post(INTROSPECT, client, token);
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).as(token).isEqualTo("{\"active\":false}");
            }
        }

        @Test
        void aRefreshTokenIsActiveForItsOwnApplicationOnly() {
            String refreshToken = login(client, "openid offline_access").get("refresh_token").asString();

            JsonNode own = json(post(INTROSPECT, client, refreshToken));
            assertThat(own.get("active").asBoolean()).isTrue();
            assertThat(own.get("client_id").asString()).isEqualTo(client.clientId());
            assertThat(own.has("token_type")).isFalse();
            assertThat(post(INTROSPECT, newClient(), refreshToken).body()).isEqualTo("{\"active\":false}");

            RefreshTokenIT.refresh(client, refreshToken); // rotated: no longer active
            assertThat(post(INTROSPECT, client, refreshToken).body()).isEqualTo("{\"active\":false}");
        }
    }

    @Nested
    class ClientAuthentication {

        @Test
        void noCredentialsAWrongSecretOrAnUnknownClientIsInvalidClient() {
            String token = login(client, "openid").get("access_token").asString();
            Map<String, String> wrongSecret = form(client, token);
            wrongSecret.put("client_secret", "wrong");
            Map<String, String> unknown = form(client, token);
            unknown.put("client_id", "no-such-client");

            for (String path : new String[] { REVOKE, INTROSPECT }) {
                HttpResponse<String> none = new WebClient(ISSUER).postForm(path, Map.of("token", token));
                assertThat(none.statusCode()).isEqualTo(401);
                assertThat(none.body()).isEqualTo("{\"error\":\"invalid_client\","
                        + "\"error_description\":\"Faltan las credenciales del cliente\"}");
                for (Map<String, String> form : java.util.List.of(wrongSecret, unknown)) {
                    HttpResponse<String> response = new WebClient(ISSUER).postForm(path, form);
                    assertThat(response.statusCode()).isEqualTo(401);
                    assertThat(response.body()).isEqualTo("{\"error\":\"invalid_client\","
                            + "\"error_description\":\"Autenticacion del cliente fallida\"}");
                }
                HttpResponse<String> basic = new WebClient(ISSUER).postForm(path, Map.of("token", token),
                        "Authorization", "Basic " + Base64.getEncoder().encodeToString((client.clientId() + ":x").getBytes()));
                assertThat(basic.statusCode()).isEqualTo(401);
                assertThat(basic.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"oauth\"");
            }
            assertThat(apiStatus(token)).isEqualTo(200);
        }

        @Test
        void aMissingTokenIsInvalidRequestAndAGetIs405() {
            for (String path : new String[] { REVOKE, INTROSPECT }) {
                Map<String, String> noToken = form(client, "x");
                noToken.remove("token");
                HttpResponse<String> response = new WebClient(ISSUER).postForm(path, noToken);
                assertThat(response.statusCode()).isEqualTo(400);
                assertThat(response.body())
                        .isEqualTo("{\"error\":\"invalid_request\",\"error_description\":\"Falta el parametro token\"}");

                HttpResponse<String> get = new WebClient(ISSUER).get(path);
                assertThat(get.statusCode()).isEqualTo(405);
                assertThat(get.headers().firstValue("Allow")).hasValue("POST");
                assertThat(get.body())
                        .isEqualTo("{\"error\":\"invalid_request\",\"error_description\":\"Metodo no permitido\"}");
            }
        }

        @Test
        void aRevokedApplicationCanNeitherRevokeNorIntrospect() {
            String token = login(client, "openid").get("access_token").asString();
            long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
            clients.revokeAs(new com.example.identity.account.Caller(owner, false), client.clientId());

            for (String path : new String[] { REVOKE, INTROSPECT }) {
                HttpResponse<String> response = post(path, client, token);
                assertThat(response.statusCode()).isEqualTo(401);
                assertThat(json(response).get("error").asString()).isEqualTo("invalid_client");
            }
        }

        @Test
        void discoveryAnnouncesBothEndpoints() {
            JsonNode doc = json(new WebClient(ISSUER).get("/.well-known/openid-configuration"));

            assertThat(doc.get("revocation_endpoint").asString()).isEqualTo(ISSUER + REVOKE);
            assertThat(doc.get("introspection_endpoint").asString()).isEqualTo(ISSUER + INTROSPECT);
        }
    }
}
