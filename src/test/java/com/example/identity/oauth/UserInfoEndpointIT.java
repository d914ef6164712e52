package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
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
 * {@code /oauth/userinfo.php} (decisions §12.1, OIDC Core §5.3), over real HTTP, with one nested class per
 * module of the OpenID Foundation's Basic OP plan that concerns it (oidcc-userinfo-get, -post-header,
 * -post-body, oidcc-scope-profile / -email / -all, oidcc-ensure-other-scope-order-succeeds,
 * oidcc-claims-essential), then the refusals of RFC 6750
 * §3: exact statuses, {@code WWW-Authenticate} challenges and JSON bodies.
 */
class UserInfoEndpointIT extends OAuthTestBase {

    static final String USERINFO = "/oauth/userinfo.php";

    @Autowired
    ApiTokenService tokens;

    ClientService.NewCredentials client;
    String email;
    long userId;
    WebClient browser;

    @BeforeEach
    void loggedInUser() {
        client = newClient();
        User user = newLoggedInUser("Lucía");
        email = user.email();
        userId = user.id();
        browser = user.browser();
    }

    /** An access token of a code flow with {@code scope} (and {@code extra} authorization parameters). */
    String accessToken(String scope, Map<String, String> extra) {
        Map<String, String> parameters = new java.util.HashMap<>(extra);
        parameters.put("state", "st-" + UUID.randomUUID());
        HttpResponse<String> response = exchange(client, authorize(browser, client, scope, parameters));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response).get("access_token").asString();
    }

    String accessToken(String scope) {
        return accessToken(scope, Map.of());
    }

    static HttpResponse<String> get(String token) {
        return new WebClient(ISSUER).get(USERINFO, "Authorization", "Bearer " + token);
    }

    static void assertUserInfoResponse(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        assertThat(response.headers().firstValue("Set-Cookie")).as("no session for a token call").isEmpty();
    }

    @Nested
    class OidccUserinfoGet {

        @Test
        void aGetWithTheTokenInTheHeaderAnswersTheSubjectOfTheIdToken() {
            HttpResponse<String> response = get(accessToken("openid"));

            assertUserInfoResponse(response);
            assertThat(response.body()).isEqualTo("{\"sub\":\"user:" + userId + "\"}");
        }
    }

    @Nested
    class OidccUserinfoPostHeader {

        @Test
        void aPostWithTheTokenInTheHeaderAnswersLikeAGet() {
            HttpResponse<String> response = new WebClient(ISSUER).postRaw(USERINFO, "",
                    "Authorization", "Bearer " + accessToken("openid email"));

            assertUserInfoResponse(response);
            assertThat(response.body()).isEqualTo(
                    "{\"sub\":\"user:" + userId + "\",\"email\":\"" + email + "\",\"email_verified\":false}");
        }
    }

    @Nested
    class OidccUserinfoPostBody {

        @Test
        void aPostWithTheTokenAsFormFieldAnswersLikeAGet() {
            HttpResponse<String> response = new WebClient(ISSUER).postForm(USERINFO,
                    Map.of("access_token", accessToken("openid")));

            assertUserInfoResponse(response);
            assertThat(json(response).get("sub").asString()).isEqualTo("user:" + userId);
        }
    }

    @Nested
    class OidccScopeProfile {

        @Test
        void profileBringsNameAndGivenName() {
            JsonNode body = json(get(accessToken("openid profile")));

            assertThat(body.get("name").asString()).isEqualTo("Lucía");
            assertThat(body.get("given_name").asString()).isEqualTo("Lucía");
            assertThat(body.has("email")).isFalse();
            // decisions §24: whether the account is a guest player's, with profile
            assertThat(body.get("invitado").asBoolean()).isFalse();
        }
    }

    @Nested
    class OidccScopeEmail {

        @Test
        void emailBringsEmailAndEmailVerified() {
            JsonNode body = json(get(accessToken("openid email")));

            assertThat(body.get("email").asString()).isEqualTo(email);
            assertThat(body.get("email_verified").asBoolean()).isFalse();
            assertThat(body.has("name")).isFalse();
        }
    }

    /**
     * {@code oidcc-ensure-other-scope-order-succeeds} (renamed {@code oidcc-alternate-happy-flow} in the suite
     * in 2026, which also sends the query parameters in another order): {@code scope=email openid}, the order
     * reversed (RFC 6749 §3.3: the order does not matter), with the parameters in reverse alphabetical order,
     * is a normal login: a code, an id_token, and the e-mail at UserInfo.
     */
    @Nested
    class OidccEnsureOtherScopeOrderSucceeds {

        @Test
        void emailOpenidInReverseOrderWithReorderedParametersSucceeds() throws Exception {
            var query = new java.util.TreeMap<String, String>(java.util.Comparator.reverseOrder());
            query.putAll(Map.of("response_type", "code", "client_id", client.clientId(), "redirect_uri",
                    client.redirectUri(), "scope", "email openid", "state", "st-rev", "nonce", "n-rev"));
            String url = "/oauth/authorize.php?" + WebClient.encode(query);
            assertThat(url).contains("?state=st-rev&scope=email+openid&")
                    .as("reverse alphabetical order").endsWith("&client_id=" + client.clientId());

            HttpResponse<String> redirect = browser.get(url);

            assertThat(redirect.statusCode()).isEqualTo(302);
            String location = WebClient.location(redirect);
            assertThat(location).startsWith(client.redirectUri() + "?code=").endsWith("&state=st-rev");
            String code = org.springframework.web.util.UriComponentsBuilder.fromUriString(location).build()
                    .getQueryParams().getFirst("code");
            JsonNode tokens = json(exchange(client, code));
            assertThat(tokens.get("scope") == null ? null : tokens.get("scope").asString())
                    .as("granted scope, if stated").isIn(null, "email openid", "openid email");
            var idToken = com.nimbusds.jwt.SignedJWT.parse(tokens.get("id_token").asString()).getJWTClaimsSet();
            assertThat(idToken.getSubject()).isEqualTo("user:" + userId);
            assertThat(idToken.getStringClaim("nonce")).isEqualTo("n-rev");
            JsonNode body = json(get(tokens.get("access_token").asString()));
            assertThat(body.get("sub").asString()).isEqualTo("user:" + userId);
            assertThat(body.get("email").asString()).isEqualTo(email);
            assertThat(body.get("email_verified").asBoolean()).isFalse();
            assertThat(body.has("name")).isFalse();
        }
    }

    @Nested
    class OidccScopeAll {

        @Test
        void everyScopeBringsEveryClaimAndTheSubjectMatchesTheIdToken() throws Exception {
            Map<String, String> parameters = Map.of("state", "st-" + UUID.randomUUID(), "nonce", "n-1");
            HttpResponse<String> tokenResponse = exchange(client, authorize(browser, client, "openid email profile",
                    parameters));
            JsonNode tokensJson = json(tokenResponse);
            var idToken = com.nimbusds.jwt.SignedJWT.parse(tokensJson.get("id_token").asString()).getJWTClaimsSet();

            HttpResponse<String> response = get(tokensJson.get("access_token").asString());

            assertUserInfoResponse(response);
            assertThat(response.body()).isEqualTo("{\"sub\":\"user:" + userId + "\",\"email\":\"" + email
                    + "\",\"email_verified\":false,\"name\":\"Lucía\",\"given_name\":\"Lucía\",\"invitado\":false,\"menor\":false}");
            assertThat(json(response).get("sub").asString()).isEqualTo(idToken.getSubject());
        }
    }

    /** A name changed at {@code /cuenta/} (decisions §17) shows at once: cached tokens are looked up again. */
    @Nested
    class NameChangedAtTheAccountPage {

        @Test
        void theCachedTokenTheRefreshedIdTokenAndTheNextLoginCarryTheNewName() throws Exception {
            JsonNode tokensJson = json(exchange(client, authorize(browser, client, "openid profile offline_access",
                    Map.of("state", "st-" + UUID.randomUUID(), "nonce", "n-1"))));
            String accessToken = tokensJson.get("access_token").asString();
            assertThat(com.nimbusds.jwt.SignedJWT.parse(tokensJson.get("id_token").asString()).getJWTClaimsSet()
                    .getStringClaim("name")).isEqualTo("Lucía");
            assertThat(json(get(accessToken)).get("name").asString()).as("now cached").isEqualTo("Lucía");

            HttpResponse<String> changed = browser.postForm("/cuenta/nombre", Map.of("primer_nombre", "Lucía Inés",
                    "_csrf", browser.csrfFrom("/cuenta/")));
            assertThat(WebClient.location(changed)).isEqualTo("/cuenta/?nombre=cambiado");

            JsonNode body = json(get(accessToken));
            assertThat(body.get("name").asString()).isEqualTo("Lucía Inés");
            assertThat(body.get("given_name").asString()).isEqualTo("Lucía Inés");
            HttpResponse<String> refreshed = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of(
                    "grant_type", "refresh_token", "refresh_token", tokensJson.get("refresh_token").asString(),
                    "client_id", client.clientId(), "client_secret", client.clientSecret()));
            assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
            assertThat(com.nimbusds.jwt.SignedJWT.parse(json(refreshed).get("id_token").asString()).getJWTClaimsSet()
                    .getStringClaim("name")).isEqualTo("Lucía Inés");
            // the session stayed: a new login through it carries the new name too
            JsonNode again = json(exchange(client, authorize(browser, client, "openid profile",
                    Map.of("state", "st-" + UUID.randomUUID(), "nonce", "n-2"))));
            assertThat(com.nimbusds.jwt.SignedJWT.parse(again.get("id_token").asString()).getJWTClaimsSet()
                    .getStringClaim("name")).isEqualTo("Lucía Inés");
        }
    }

    @Nested
    class OidccClaimsEssential {

        @Test
        void nameAskedEssentialForTheUserInfoIsThereWithoutTheProfileScope() {
            String token = accessToken("openid", Map.of("claims", "{\"userinfo\":{\"name\":{\"essential\":true}}}"));

            JsonNode body = json(get(token));

            assertThat(body.get("name").asString()).isEqualTo("Lucía");
            assertThat(body.has("given_name")).isFalse();
            assertThat(body.has("email")).isFalse();
        }

        @Test
        void aClaimAskedForTheIdTokenOnlyIsNotInTheUserInfo() {
            String token = accessToken("openid", Map.of("claims", "{\"id_token\":{\"email\":null}}"));

            assertThat(json(get(token)).has("email")).isFalse();
        }
    }

    @Nested
    class Refusals {

        @Test
        void noTokenIs401WithABareChallenge() {
            HttpResponse<String> response = new WebClient(ISSUER).get(USERINFO);

            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().allValues("WWW-Authenticate")).containsExactly("Bearer");
            assertThat(response.body())
                    .isEqualTo("{\"error\":\"invalid_token\",\"error_description\":\"Falta el token de acceso\"}");
        }

        @Test
        void anUnknownTokenIs401InvalidToken() {
            HttpResponse<String> response = get("0".repeat(64));

            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().allValues("WWW-Authenticate")).containsExactly("Bearer error=\"invalid_token\"");
            assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
            assertThat(response.body()).isEqualTo("{\"error\":\"invalid_token\","
                    + "\"error_description\":\"Token de acceso invalido, caducado o revocado\"}");
        }

        @Test
        void aRevokedTokenIs401InvalidToken() {
            String token = accessToken("openid");
            assertThat(get(token).statusCode()).isEqualTo(200);
            tokens.revokeByClient(client.clientId());

            HttpResponse<String> response = get(token);

            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(json(response).get("error").asString()).isEqualTo("invalid_token");
        }

        @Test
        void aTokenWithoutOpenidIs403InsufficientScope() {
            HttpResponse<String> response = get(accessToken("email"));

            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(response.headers().allValues("WWW-Authenticate"))
                    .containsExactly("Bearer error=\"insufficient_scope\", scope=\"openid\"");
            assertThat(response.body()).isEqualTo("{\"error\":\"insufficient_scope\","
                    + "\"error_description\":\"El token de acceso no tiene el alcance openid\"}");
        }

        @Test
        void aPersonalApiTokenIs403InsufficientScope() {
            long developer = accounts.findByEmail("dev@example.com").orElseThrow().getId();
            String personal = tokens.createPersonal(developer, "juego " + UUID.randomUUID()).value();

            HttpResponse<String> response = get(personal);

            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(json(response).get("error").asString()).isEqualTo("insufficient_scope");
        }

        @Test
        void aTokenInTheHeaderAndTheBodyIs400InvalidRequest() {
            String token = accessToken("openid");

            HttpResponse<String> response = new WebClient(ISSUER).postForm(USERINFO, Map.of("access_token", token),
                    "Authorization", "Bearer " + token);

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.headers().allValues("WWW-Authenticate")).containsExactly("Bearer error=\"invalid_request\"");
            assertThat(json(response).get("error").asString()).isEqualTo("invalid_request");
        }

        @Test
        void aTokenInTheQueryStringIs400InvalidRequest() {
            HttpResponse<String> response = new WebClient(ISSUER).get(USERINFO + "?access_token=" + accessToken("openid"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(json(response).get("error_description").asString())
                    .isEqualTo("El token de acceso va en la cabecera Authorization o en el cuerpo de un POST, nunca en la URL");
        }

        @Test
        void otherMethodsAreNotServed() {
            HttpResponse<String> response = new WebClient(ISSUER).send(java.net.http.HttpRequest.newBuilder(uri(USERINFO))
                    .method("DELETE", java.net.http.HttpRequest.BodyPublishers.noBody())
                    .header("Authorization", "Bearer " + accessToken("openid")).build());

            assertThat(response.statusCode()).as(response.headers().map() + " " + response.body()).isEqualTo(405);
        }
    }
}
