package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import com.example.identity.client.ClientService;
import com.example.identity.crypto.Secrets;
import com.example.identity.oauth.token.RefreshTokenExchange;
import com.example.identity.support.WebClient;

/**
 * Refresh tokens (decisions §12.4 and §12.5) over real HTTP, on whichever database the run uses: issued
 * with {@code offline_access} only, rotated on every use, a reuse revokes the whole family (RFC 9700
 * §4.14), bound to their client (OIDF oidcc-refresh-token), refusals in RFC 6749 §5.2's shape after the
 * legacy client checks, and concurrent refreshes of one token with exactly one success.
 */
public class RefreshTokenIT extends OAuthTestBase {

    ClientService.NewCredentials client;
    WebClient browser;
    String email;
    long userId;

    @BeforeEach
    void loggedInUser() {
        client = newClient();
        User user = newLoggedInUser("Nerea");
        email = user.email();
        userId = user.id();
        browser = user.browser();
    }

    /** The token response of a code flow of {@link #client} with {@code scope}. */
    JsonNode login(ClientService.NewCredentials app, String scope) {
        String code = authorize(browser, app, scope, Map.of("state", "s", "nonce", "n-" + UUID.randomUUID()));
        HttpResponse<String> response = exchange(app, code);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response);
    }

    static Map<String, String> refreshForm(ClientService.NewCredentials app, String refreshToken) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", refreshToken);
        form.put("client_id", app.clientId());
        form.put("client_secret", app.clientSecret());
        return form;
    }

    static HttpResponse<String> refresh(ClientService.NewCredentials app, String refreshToken) {
        return new WebClient(ISSUER).postForm("/oauth/token.php", refreshForm(app, refreshToken));
    }

    /** A refresh by a public (native) application: its client_id, no secret. */
    static HttpResponse<String> refreshPublic(String clientId, String refreshToken) {
        return new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", "refresh_token",
                "refresh_token", refreshToken, "client_id", clientId));
    }

    static void assertStandardError(HttpResponse<String> response, int status, String error, String description) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(response.body()).isEqualTo("{\"error\":\"" + error + "\",\"error_description\":\"" + description + "\"}");
        assertThat(description).as("RFC 6749 §5.2's characters").matches(ErrorDescriptionCharactersIT.RFC6749);
    }

    static int apiStatus(String accessToken) {
        return TokenEndpointIT.userinfo(accessToken).statusCode();
    }

    @Nested
    class Issue {

        @Test
        void offlineAccessBringsARefreshTokenOf256BitsStoredAsADigest() {
            JsonNode tokens = login(client, "openid offline_access");

            String refreshToken = tokens.get("refresh_token").asString();
            assertThat(refreshToken).matches("[A-Za-z0-9_-]{43}");
            assertThat(jdbc.queryForObject("select count(*) from refresh_tokens where token_digest = ?", Integer.class,
                    Secrets.sha256Hex(refreshToken))).isEqualTo(1);
            assertThat(jdbc.queryForObject("select count(*) from refresh_tokens where token_digest = ?", Integer.class,
                    refreshToken)).isZero();
        }

        @Test
        void withoutOfflineAccessThereIsNoRefreshToken() {
            JsonNode tokens = login(client, "openid email");

            assertThat(tokens.has("refresh_token")).isFalse();
        }

        @Test
        void discoveryAnnouncesTheGrantAndTheScope() {
            JsonNode doc = json(new WebClient(ISSUER).get("/.well-known/openid-configuration"));

            assertThat(doc.get("grant_types_supported").toString()).contains("\"refresh_token\"");
            assertThat(doc.get("scopes_supported").toString()).contains("\"offline_access\"");
        }
    }

    /** OIDF oidcc-refresh-token: the refresh works, gives new tokens and an id_token of the same login. */
    @Nested
    class OidccRefreshToken {

        @Test
        void aRefreshRotatesTheTokenAndGivesANewAccessTokenAndIdTokenOfTheSameLogin() throws Exception {
            JsonNode first = login(client, "openid email offline_access");
            JWTClaimsSet firstIdToken = SignedJWT.parse(first.get("id_token").asString()).getJWTClaimsSet();
            // the module waits a second too: iat must move on
            clockReaches(firstIdToken.getIssueTime().toInstant().getEpochSecond() + 1);

            HttpResponse<String> response = refresh(client, first.get("refresh_token").asString());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
            assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
            JsonNode second = json(response);
            assertThat(second.get("token_type").asString()).isEqualTo("Bearer");
            assertThat(second.get("expires_in").asLong()).isEqualTo(3600);
            assertThat(second.get("access_token").asString()).matches("[0-9a-f]{64}")
                    .isNotEqualTo(first.get("access_token").asString());
            assertThat(second.get("refresh_token").asString()).matches("[A-Za-z0-9_-]{43}")
                    .isNotEqualTo(first.get("refresh_token").asString());
            JWTClaimsSet idToken = SignedJWT.parse(second.get("id_token").asString()).getJWTClaimsSet();
            assertThat(idToken.getIssuer()).isEqualTo(firstIdToken.getIssuer());
            assertThat(idToken.getSubject()).isEqualTo("user:" + userId).isEqualTo(firstIdToken.getSubject());
            assertThat(idToken.getAudience()).isEqualTo(firstIdToken.getAudience());
            assertThat(idToken.getLongClaim("auth_time")).isEqualTo(firstIdToken.getLongClaim("auth_time"));
            assertThat(idToken.getIssueTime()).isAfter(firstIdToken.getIssueTime());
            assertThat(idToken.getClaim("nonce")).isNull();
            assertThat(idToken.getStringClaim("email")).isEqualTo(email);

            // the new access token works at both userinfo endpoints, and so does the old one until it expires
            assertThat(apiStatus(second.get("access_token").asString())).isEqualTo(200);
            assertThat(UserInfoEndpointIT.get(second.get("access_token").asString()).statusCode()).isEqualTo(200);
            assertThat(apiStatus(first.get("access_token").asString())).isEqualTo(200);
            // and the new refresh token refreshes again
            assertThat(refresh(client, second.get("refresh_token").asString()).statusCode()).isEqualTo(200);
        }

        @Test
        void aRefreshTokenOfAnotherClientIsInvalidGrant() {
            ClientService.NewCredentials other = newClient();
            String othersToken = login(other, "openid offline_access").get("refresh_token").asString();

            assertStandardError(refresh(client, othersToken), 400, "invalid_grant", RefreshTokenExchange.INVALID);
            // and it was not spent by the attempt
            assertThat(refresh(other, othersToken).statusCode()).isEqualTo(200);
        }

        @Test
        void aNarrowerScopeNarrowsTheAccessTokenButNotTheFamily() {
            JsonNode first = login(client, "openid email offline_access");
            Map<String, String> form = refreshForm(client, first.get("refresh_token").asString());
            form.put("scope", "openid");

            JsonNode second = json(new WebClient(ISSUER).postForm("/oauth/token.php", form));

            assertThat(jdbc.queryForObject("select scopes from api_tokens where token_digest = ?", String.class,
                    Secrets.sha256Hex(second.get("access_token").asString()))).isEqualTo("openid");
            HttpResponse<String> third = refresh(client, second.get("refresh_token").asString());
            assertThat(jdbc.queryForObject("select scopes from api_tokens where token_digest = ?", String.class,
                    Secrets.sha256Hex(json(third).get("access_token").asString())).split(" "))
                    .containsExactlyInAnyOrder("openid", "email", "offline_access");
        }

        @Test
        void aWiderScopeIsInvalidScope() {
            JsonNode first = login(client, "openid offline_access");
            Map<String, String> form = refreshForm(client, first.get("refresh_token").asString());
            form.put("scope", "openid email");

            assertStandardError(new WebClient(ISSUER).postForm("/oauth/token.php", form), 400, "invalid_scope",
                    "El alcance pedido excede el concedido");
        }
    }

    @Nested
    class ReuseDetection {

        @Test
        void aRotatedTokenThatComesBackRevokesTheWholeFamily() {
            JsonNode first = login(client, "openid offline_access");
            JsonNode second = json(refresh(client, first.get("refresh_token").asString()));
            JsonNode third = json(refresh(client, second.get("refresh_token").asString()));
            assertThat(apiStatus(third.get("access_token").asString())).isEqualTo(200);

            // the first token, rotated twice ago, is replayed (by an attacker or a confused client)
            assertStandardError(refresh(client, first.get("refresh_token").asString()), 400, "invalid_grant",
                    RefreshTokenExchange.REUSED);

            // every token of the family is dead: the latest refresh token and all three access tokens
            assertStandardError(refresh(client, third.get("refresh_token").asString()), 400, "invalid_grant",
                    RefreshTokenExchange.INVALID);
            for (JsonNode tokens : List.of(first, second, third)) {
                assertThat(apiStatus(tokens.get("access_token").asString())).isEqualTo(401);
            }
            assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'REFRESH_REUSE_DETECTED' "
                    + "and subject like ?", Integer.class, "%usuario #" + userId + ";%")).isEqualTo(1);
        }

        /** decisions §1: a reused code revokes every token issued from it, its refresh token included. */
        @Test
        void aReusedCodeRevokesTheRefreshTokenItGaveToo() {
            String code = authorize(browser, client, "openid offline_access", Map.of("state", "s"));
            HttpResponse<String> exchanged = exchange(client, code);
            assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(200);
            JsonNode tokens = json(exchanged);

            TokenEndpointIT.assertError(exchange(client, code), 400, "Código ya utilizado");

            assertThat(apiStatus(tokens.get("access_token").asString())).isEqualTo(401);
            assertStandardError(refresh(client, tokens.get("refresh_token").asString()), 400, "invalid_grant",
                    RefreshTokenExchange.INVALID);
            assertThat(jdbc.queryForObject("select count(*) from refresh_tokens where token_digest = ? "
                    + "and revoked_at is not null", Integer.class, Secrets.sha256Hex(tokens.get("refresh_token")
                            .asString()))).isEqualTo(1);
        }

        @Test
        void anotherLoginOfTheSameUserAndClientIsAnotherFamilyAndSurvives() {
            JsonNode stolen = login(client, "openid offline_access");
            JsonNode otherDevice = login(client, "openid offline_access");
            refresh(client, stolen.get("refresh_token").asString());

            refresh(client, stolen.get("refresh_token").asString()); // reuse: that family ends

            assertThat(refresh(client, otherDevice.get("refresh_token").asString()).statusCode()).isEqualTo(200);
        }

        @Test
        void sixteenParallelRefreshesOfOneTokenGiveExactlyOneSuccessAndEndTheFamily() throws Exception {
            String refreshToken = login(client, "openid offline_access").get("refresh_token").asString();
            int parallel = 16;
            ExecutorService pool = Executors.newFixedThreadPool(parallel);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> results = new ArrayList<>();
            try {
                for (int i = 0; i < parallel; i++) {
                    results.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return refresh(client, refreshToken);
                    }));
                }
                start.countDown();
                List<JsonNode> successes = new ArrayList<>();
                int refused = 0;
                for (var result : results) {
                    HttpResponse<String> response = result.get(60, TimeUnit.SECONDS);
                    if (response.statusCode() == 200) {
                        successes.add(json(response));
                    }
                    else {
                        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
                        assertThat(json(response).get("error").asString()).isEqualTo("invalid_grant");
                        refused++;
                    }
                }
                assertThat(successes).hasSize(1);
                assertThat(refused).isEqualTo(parallel - 1);
                // the losers presented a rotated token: the family, the winner's new tokens included, is revoked
                assertThat(refresh(client, successes.get(0).get("refresh_token").asString()).statusCode()).isEqualTo(400);
                assertThat(apiStatus(successes.get(0).get("access_token").asString())).isEqualTo(401);
                assertThat(jdbc.queryForObject("select count(*) from refresh_tokens r join refresh_tokens f "
                        + "on f.authorization_id = r.authorization_id where r.token_digest = ?", Integer.class,
                        Secrets.sha256Hex(refreshToken))).as("one rotation, one successor").isEqualTo(2);
            }
            finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    class Refusals {

        @Test
        void theClientChecksComeFirstWithTheLegacyErrors() {
            String refreshToken = login(client, "openid offline_access").get("refresh_token").asString();

            Map<String, String> wrongSecret = refreshForm(client, refreshToken);
            wrongSecret.put("client_secret", "not-the-secret");
            TokenEndpointIT.assertError(new WebClient(ISSUER).postForm("/oauth/token.php", wrongSecret), 401,
                    "client_secret incorrecto");
            Map<String, String> noSecret = refreshForm(client, refreshToken);
            noSecret.remove("client_secret");
            TokenEndpointIT.assertError(new WebClient(ISSUER).postForm("/oauth/token.php", noSecret), 400,
                    "Faltan parámetros obligatorios");
            // the refused requests did not spend the token
            assertThat(refresh(client, refreshToken).statusCode()).isEqualTo(200);
        }

        @Test
        void aMissingOrRepeatedRefreshTokenIsInvalidRequest() {
            Map<String, String> missing = refreshForm(client, "x");
            missing.remove("refresh_token");
            assertStandardError(new WebClient(ISSUER).postForm("/oauth/token.php", missing), 400, "invalid_request",
                    "Falta el parametro refresh_token");

            String body = WebClient.encode(refreshForm(client, "a".repeat(43))) + "&refresh_token=" + "b".repeat(43);
            assertStandardError(new WebClient(ISSUER).postRaw("/oauth/token.php", body), 400, "invalid_request",
                    "Parametro repetido");
        }

        @Test
        void unknownMalformedExpiredAndDisabledAreInvalidGrant() {
            assertStandardError(refresh(client, "A".repeat(43)), 400, "invalid_grant", RefreshTokenExchange.INVALID);
            assertStandardError(refresh(client, "not a token"), 400, "invalid_grant", RefreshTokenExchange.INVALID);

            String expiring = login(client, "openid offline_access").get("refresh_token").asString();
            jdbc.update("update refresh_tokens set expires_at = ? where token_digest = ?",
                    java.sql.Timestamp.from(Instant.now().minusSeconds(1)), Secrets.sha256Hex(expiring));
            assertStandardError(refresh(client, expiring), 400, "invalid_grant", RefreshTokenExchange.INVALID);

            String ofDisabled = login(client, "openid offline_access").get("refresh_token").asString();
            long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
            assertThat(administration.disable(new com.example.identity.account.Caller(admin, true), userId)).isTrue();
            assertStandardError(refresh(client, ofDisabled), 400, "invalid_grant", RefreshTokenExchange.INVALID);
        }

        @Test
        void aRevokedApplicationIsClientRevokedAndItsRefreshTokensAreRevoked() {
            String refreshToken = login(client, "openid offline_access").get("refresh_token").asString();
            long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
            assertThat(clients.revokeAs(new com.example.identity.account.Caller(owner, false), client.clientId())).isTrue();

            TokenEndpointIT.assertError(refresh(client, refreshToken), 401, "client_revoked");
            assertThat(jdbc.queryForObject("select revoked_at from refresh_tokens where token_digest = ?", Instant.class,
                    Secrets.sha256Hex(refreshToken))).isNotNull();
        }
    }
}
