package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.JsonNode;

import com.example.identity.client.ClientService;
import com.example.identity.crypto.Secrets;
import com.example.identity.oauth.token.AuthorizationCodeExchange;
import com.example.identity.oidc.RequestedClaims;
import com.example.identity.support.WebClient;

/**
 * The modules of the OpenID Foundation's Basic OP plan that run a whole code flow (the authorization
 * request's own modules are in {@link BasicOpAuthorizationRequestIT}, UserInfo's in {@link UserInfoEndpointIT},
 * refresh in {@link RefreshTokenIT}), one nested class each, named after the module, asserting what it
 * checks, over real HTTP. The one deviation: a reused code is answered with the legacy contract's
 * {@code Código ya utilizado}, not {@code invalid_grant} (decisions §1; documented in docs/oauth-oidc.md).
 */
class BasicOpFlowIT extends OAuthTestBase {

    ClientService.NewCredentials client;
    WebClient browser;
    long userId;

    @BeforeEach
    void loggedInUser() {
        client = newClient();
        User user = newLoggedInUser("Olaia");
        userId = user.id();
        browser = user.browser();
    }

    /** The authorization response's redirect, as the module's callback sees it. */
    URI authorizationResponse(Map<String, String> query) {
        HttpResponse<String> response = browser.get("/oauth/authorize.php?" + WebClient.encode(query));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(302);
        return URI.create(WebClient.location(response));
    }

    Map<String, String> request(String scope, String state, String nonce) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("scope", scope);
        query.put("state", state);
        query.put("nonce", nonce);
        return query;
    }

    static String param(URI uri, String name) {
        return UriComponentsBuilder.fromUri(uri).build().getQueryParams().getFirst(name);
    }

    JWTClaimsSet validIdToken(String idToken, String nonce) throws Exception {
        SignedJWT jwt = SignedJWT.parse(idToken);
        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(jwt.getHeader().getKeyID()).as("EnsureIdTokenContainsKid").isNotBlank();
        var validator = new IDTokenValidator(new Issuer(ISSUER), new ClientID(client.clientId()), JWSAlgorithm.RS256,
                URI.create(ISSUER + "/oauth/jwks.json").toURL());
        return validator.validate(jwt, nonce == null ? null : new Nonce(nonce)).toJWTClaimsSet();
    }

    /** oidcc-server: the happy flow with client_secret_basic, and everything the module checks of it. */
    @Nested
    class OidccServer {

        @Test
        void theHappyFlowWithClientSecretBasic() throws Exception {
            String state = "st-" + UUID.randomUUID();
            String nonce = "n-" + UUID.randomUUID();
            URI callback = authorizationResponse(request("openid", state, nonce));
            assertThat(callback.toString()).startsWith(client.redirectUri() + "?");
            assertThat(param(callback, "state")).isEqualTo(state);
            String code = param(callback, "code");
            // EnsureMinimumAuthorizationCodeEntropy / Length: 128 bits at least (decisions §2 asks 256)
            assertThat(Base64.getUrlDecoder().decode(code)).hasSizeGreaterThanOrEqualTo(32);

            HttpResponse<String> response = new WebClient(ISSUER).postForm("/oauth/token.php",
                    Map.of("grant_type", "authorization_code", "code", code, "redirect_uri", client.redirectUri()),
                    "Authorization", "Basic " + Base64.getEncoder().encodeToString(
                            (client.clientId() + ":" + client.clientSecret()).getBytes()));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
            assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
            JsonNode tokens = json(response);
            assertThat(tokens.get("token_type").asString()).isEqualTo("Bearer");
            assertThat(tokens.get("expires_in").asLong()).isPositive();
            JWTClaimsSet idToken = validIdToken(tokens.get("id_token").asString(), nonce);
            assertThat(idToken.getSubject()).isEqualTo("user:" + userId);
            assertThat(idToken.getClaims()).as("EnsureIdTokenDoesNotContainName / NonRequestedClaims")
                    .doesNotContainKeys("name", "given_name", "email", "email_verified");
            assertThat(idToken.getClaim("auth_time")).isNotNull();

            HttpResponse<String> userinfo = UserInfoEndpointIT.get(tokens.get("access_token").asString());
            assertThat(json(userinfo).get("sub").asString()).isEqualTo(idToken.getSubject());
        }
    }

    /** oidcc-server-client-secret-post: the same with the credentials in the form. */
    @Nested
    class OidccServerClientSecretPost {

        @Test
        void theHappyFlowWithClientSecretPost() throws Exception {
            String nonce = "n-" + UUID.randomUUID();
            String code = param(authorizationResponse(request("openid", "s", nonce)), "code");

            HttpResponse<String> response = exchange(client, code);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(validIdToken(json(response).get("id_token").asString(), nonce).getSubject())
                    .isEqualTo("user:" + userId);
        }
    }

    /** oidcc-idtoken-signature: no algorithm asked for; RS256 with a kid, verifiable with the JWKS. */
    @Nested
    class OidccIdtokenSignature {

        @Test
        void theIdTokenIsRs256WithAKidOfThePublishedKeys() throws Exception {
            String nonce = "n-" + UUID.randomUUID();
            String code = param(authorizationResponse(request("openid", "s", nonce)), "code");

            String idToken = json(exchange(client, code)).get("id_token").asString();

            validIdToken(idToken, nonce);
            String kid = SignedJWT.parse(idToken).getHeader().getKeyID();
            assertThat(new WebClient(ISSUER).get("/oauth/jwks.json").body()).contains("\"kid\":\"" + kid + "\"");
        }
    }

    /** oidcc-response-type-missing: an error back to the client (invalid_request), never a code. */
    @Nested
    class OidccResponseTypeMissing {

        @Test
        void aRequestWithoutResponseTypeIsInvalidRequestAtTheRedirectUri() {
            Map<String, String> query = request("openid", "st-rt", "n");
            query.remove("response_type");

            URI callback = authorizationResponse(query);

            assertThat(callback.toString()).startsWith(client.redirectUri() + "?");
            assertThat(param(callback, "error")).isEqualTo("invalid_request");
            assertThat(param(callback, "state")).isEqualTo("st-rt");
            assertThat(param(callback, "code")).isNull();
        }
    }

    /** oidcc-ensure-registered-redirect-uri: an unregistered redirect URI is an error page, never a redirect. */
    @Nested
    class OidccEnsureRegisteredRedirectUri {

        @Test
        void anAppendedRedirectUriIsAnErrorPage() {
            Map<String, String> query = request("openid", "s", "n");
            query.put("redirect_uri", client.redirectUri() + "/extra");

            HttpResponse<String> response = browser.get("/oauth/authorize.php?" + WebClient.encode(query));

            AuthorizeEndpointIT.assertErrorPage(response, "redirect_uri no coincide con el registrado");
        }
    }

    /** oidcc-ensure-request-with-valid-pkce-succeeds. */
    @Nested
    class OidccEnsureRequestWithValidPkceSucceeds {

        @Test
        void aS256ChallengeAndItsVerifierSucceed() {
            String verifier = Secrets.randomUrlSafe(32);
            Map<String, String> query = request("openid", "s", "n");
            query.put("code_challenge", AuthorizationCodeExchange.s256(verifier));
            query.put("code_challenge_method", "S256");
            String code = param(authorizationResponse(query), "code");
            Map<String, String> form = exchangeForm(client, code);
            form.put("code_verifier", verifier);

            HttpResponse<String> response = new WebClient(ISSUER).postForm("/oauth/token.php", form);

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        }
    }

    /**
     * oidcc-codereuse: a second use immediately after the first is refused. The module expects
     * {@code invalid_grant}; the legacy contract answers {@code Código ya utilizado} (the deviation).
     */
    @Nested
    class OidccCodereuse {

        @Test
        void aSecondUseIsRefused() {
            String code = param(authorizationResponse(request("openid", "s", "n")), "code");
            assertThat(exchange(client, code).statusCode()).isEqualTo(200);

            TokenEndpointIT.assertError(exchange(client, code), 400, "Código ya utilizado");
        }
    }

    /**
     * oidcc-codereuse-30seconds: a second use 30 seconds later is refused and the access token of the first
     * is revoked (RFC 6749 §4.1.2). The 30 seconds are made by moving the token's issue time back, not by waiting: the
     * code's authorization went with its exchange (decisions D48), and the token issued from it names it.
     */
    @Nested
    class OidccCodereuse30seconds {

        @Test
        void aSecondUseThirtySecondsLaterIsRefusedAndRevokesTheFirstAccessToken() {
            String code = param(authorizationResponse(request("openid", "s", "n")), "code");
            String accessToken = json(exchange(client, code)).get("access_token").asString();
            assertThat(UserInfoEndpointIT.get(accessToken).statusCode()).isEqualTo(200);
            Instant thirtySecondsAgo = Instant.now().minusSeconds(30);
            assertThat(jdbc.update("update api_tokens set created_at = ? where authorization_id = ?",
                    Timestamp.from(thirtySecondsAgo), Secrets.sha256Hex(code))).isOne();

            TokenEndpointIT.assertError(exchange(client, code), 400, "Código ya utilizado");

            HttpResponse<String> userinfo = UserInfoEndpointIT.get(accessToken);
            assertThat(userinfo.statusCode()).isEqualTo(401);
            assertThat(json(userinfo).get("error").asString()).isEqualTo("invalid_token");
        }
    }
}
