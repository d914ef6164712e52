package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.client.SenderConstraints;
import com.example.identity.oauth.token.AuthorizationCodeExchange;
import com.example.identity.support.DPoPKey;
import com.example.identity.support.WebClient;

/**
 * DPoP (RFC 9449, decisions §28) over HTTP, with the Nimbus SDK's proof factory ({@link DPoPKey}): the grants that
 * issue a player's tokens bind them to the key of the request's proof ({@code token_type} {@code DPoP}, {@code cnf.jkt}
 * at introspection, the thumbprint stored with the token), a public client's refresh token too; both UserInfo
 * endpoints and the ticket exchange take such a token only with a proof of its key, and refuse it as {@code Bearer},
 * with another key, a wrong {@code ath}, {@code htm} or {@code htu}, a stale {@code iat} or a replayed {@code jti};
 * {@code /api/userinfo.php} keeps its documented 401 body. A request without DPoP is answered as before.
 */
class DPoPIT extends OAuthTestBase {

    static final String API_USERINFO = ISSUER + "/api/userinfo.php";
    static final String OIDC_USERINFO = ISSUER + "/oauth/userinfo.php";
    static final String TOKEN = ISSUER + "/oauth/token.php";
    static final String INVALID = "{\"ok\":false,\"error\":\"Token inválido o revocado\"}";
    static final String DPOP_CHALLENGE_ALGS = "algs=\"RS256 RS384 RS512 PS256 PS384 PS512 ES256 ES384 ES512\"";

    User player;
    DPoPKey key;

    @BeforeEach
    void aPlayerAndAKey() {
        player = newLoggedInUser("Paula");
        key = DPoPKey.generate();
    }

    /** The code exchange of {@code client} for the player, with {@code headers} (a DPoP proof). */
    HttpResponse<String> exchangeWith(ClientService.NewCredentials client, String scope, String... headers) {
        String code = authorize(player.browser(), client, scope);
        return new WebClient(ISSUER).postForm("/oauth/token.php", exchangeForm(client, code), headers);
    }

    /** A token bound to {@link #key} by a code exchange with its proof. */
    String boundToken(ClientService.NewCredentials client) {
        HttpResponse<String> answer = exchangeWith(client, "openid email profile", "DPoP", key.proof("POST", TOKEN));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return json(answer).get("access_token").asString();
    }

    static HttpResponse<String> get(String url, String... headers) {
        return new WebClient(ISSUER).get(url.substring(ISSUER.length()), headers);
    }

    @Test
    void aCodeExchangedWithAProofGivesATokenBoundToItsKey() {
        var client = newClient();
        HttpResponse<String> answer = exchangeWith(client, "openid email", "DPoP", key.proof("POST", TOKEN));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode body = json(answer);
        assertThat(body.get("token_type").asString()).isEqualTo("DPoP");
        assertThat(body.propertyNames()).containsExactly("access_token", "token_type", "expires_in", "id_token");
        String token = body.get("access_token").asString();
        assertThat(jdbc.queryForObject("select dpop_jkt from api_tokens where client_id = ? and user_id = ?",
                String.class, client.clientId(), player.id())).isEqualTo(key.thumbprint());

        // introspection says so (RFC 9449 §6.2)
        JsonNode introspected = json(new WebClient(ISSUER).postForm("/oauth/introspect.php", Map.of("token", token),
                "Authorization", TokenEndpointIT.basic(client.clientId(), client.clientSecret())));
        assertThat(introspected.get("active").asBoolean()).isTrue();
        assertThat(introspected.get("token_type").asString()).isEqualTo("DPoP");
        assertThat(introspected.get("cnf").get("jkt").asString()).isEqualTo(key.thumbprint());

        // without a proof the same application gets a Bearer token, exactly as before
        HttpResponse<String> plain = exchangeWith(client, "openid email");
        assertThat(json(plain).get("token_type").asString()).isEqualTo("Bearer");
        assertThat(json(new WebClient(ISSUER).postForm("/oauth/introspect.php", Map.of("token",
                json(plain).get("access_token").asString()), "Authorization",
                TokenEndpointIT.basic(client.clientId(), client.clientSecret()))).has("cnf")).isFalse();
    }

    @Test
    void aBoundTokenWorksAtApiUserinfoWithAProofOfItsKeyOnly() {
        String token = boundToken(newClient());
        String profile = "{\"ok\":true,\"user\":{\"id\":" + player.id() + ",\"primer_nombre\":\"Paula\",\"correo\":\""
                + player.email() + "\",\"rol\":\"user\"}}";

        HttpResponse<String> ok = get(API_USERINFO, "Authorization", "DPoP " + token, "DPoP",
                key.proof("GET", API_USERINFO, token));
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo(profile);

        // as a Bearer token: refused with the documented body and challenge
        HttpResponse<String> bearer = get(API_USERINFO, "Authorization", "Bearer " + token);
        assertThat(bearer.statusCode()).isEqualTo(401);
        assertThat(bearer.body()).isEqualTo(INVALID);
        assertThat(bearer.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"invalid_token\"");

        // every bad proof: the same 401 body, a DPoP challenge
        String proofRefused = "DPoP error=\"invalid_dpop_proof\", " + DPOP_CHALLENGE_ALGS;
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("no proof", null);
        bad.put("another key", DPoPKey.generate().proof("GET", API_USERINFO, token));
        bad.put("a wrong ath", key.proof("GET", API_USERINFO, token.substring(1) + "0"));
        bad.put("a wrong htm", key.proof("POST", API_USERINFO, token));
        bad.put("a wrong htu", key.proof("GET", OIDC_USERINFO, token));
        bad.put("a stale iat", key.proof(UUID.randomUUID().toString(), "GET", API_USERINFO,
                Instant.now().minusSeconds(61), token));
        for (var proof : bad.entrySet()) {
            HttpResponse<String> refused = proof.getValue() == null
                    ? get(API_USERINFO, "Authorization", "DPoP " + token)
                    : get(API_USERINFO, "Authorization", "DPoP " + token, "DPoP", proof.getValue());
            assertThat(refused.statusCode()).as(proof.getKey()).isEqualTo(401);
            assertThat(refused.body()).as(proof.getKey()).isEqualTo(INVALID);
            assertThat(refused.headers().firstValue("WWW-Authenticate")).as(proof.getKey()).hasValue(proofRefused);
        }

        // a proof works once
        String once = key.proof("GET", API_USERINFO, token);
        assertThat(get(API_USERINFO, "Authorization", "DPoP " + token, "DPoP", once).statusCode()).isEqualTo(200);
        HttpResponse<String> replayed = get(API_USERINFO, "Authorization", "DPoP " + token, "DPoP", once);
        assertThat(replayed.statusCode()).isEqualTo(401);
        assertThat(replayed.body()).isEqualTo(INVALID);
        assertThat(replayed.headers().firstValue("WWW-Authenticate")).hasValue(proofRefused);

        // two DPoP headers
        assertThat(get(API_USERINFO, "Authorization", "DPoP " + token, "DPoP", key.proof("GET", API_USERINFO, token),
                "DPoP", key.proof("GET", API_USERINFO, token)).statusCode()).isEqualTo(401);
    }

    @Test
    void anUnboundTokenStaysABearerToken() {
        String token = json(exchangeWith(newClient(), "openid")).get("access_token").asString();
        assertThat(get(API_USERINFO, "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        HttpResponse<String> asDPoP = get(API_USERINFO, "Authorization", "DPoP " + token, "DPoP",
                key.proof("GET", API_USERINFO, token));
        assertThat(asDPoP.statusCode()).isEqualTo(401);
        assertThat(asDPoP.body()).isEqualTo(INVALID);
        assertThat(asDPoP.headers().firstValue("WWW-Authenticate"))
                .hasValue("DPoP error=\"invalid_token\", " + DPOP_CHALLENGE_ALGS);
        HttpResponse<String> oidc = get(OIDC_USERINFO, "Authorization", "DPoP " + token, "DPoP",
                key.proof("GET", OIDC_USERINFO, token));
        assertThat(oidc.statusCode()).isEqualTo(401);
        assertThat(json(oidc).get("error").asString()).isEqualTo("invalid_token");
    }

    @Test
    void aBoundTokenWorksAtOpenIdConnectsUserinfoWithAProofOfItsKeyOnly() {
        String token = boundToken(newClient());

        HttpResponse<String> ok = get(OIDC_USERINFO, "Authorization", "DPoP " + token, "DPoP",
                key.proof("GET", OIDC_USERINFO, token));
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(json(ok).get("sub").asString()).isEqualTo("user:" + player.id());
        // a POST with its own proof
        HttpResponse<String> posted = new WebClient(ISSUER).postForm("/oauth/userinfo.php", Map.of(), "Authorization",
                "DPoP " + token, "DPoP", key.proof("POST", OIDC_USERINFO, token));
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(200);

        HttpResponse<String> bearer = get(OIDC_USERINFO, "Authorization", "Bearer " + token);
        assertThat(bearer.statusCode()).isEqualTo(401);
        assertThat(bearer.body()).isEqualTo("{\"error\":\"invalid_token\",\"error_description\":\"Token ligado a una "
                + "clave DPoP: envialo con Authorization: DPoP y una prueba de esa clave\"}");
        assertThat(bearer.headers().firstValue("WWW-Authenticate"))
                .hasValue("DPoP error=\"invalid_token\", " + DPOP_CHALLENGE_ALGS);
        HttpResponse<String> inBody = new WebClient(ISSUER).postForm("/oauth/userinfo.php", Map.of("access_token", token));
        assertThat(inBody.statusCode()).isEqualTo(401);

        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("iat de la prueba DPoP fuera de la ventana de 60 segundos", key.proof(UUID.randomUUID().toString(),
                "GET", OIDC_USERINFO, Instant.now().minusSeconds(61), token));
        bad.put("La prueba DPoP no es de la clave a la que esta ligado el token",
                DPoPKey.generate().proof("GET", OIDC_USERINFO, token));
        bad.put("ath de la prueba DPoP no corresponde al token presentado", key.proof("GET", OIDC_USERINFO, "x" + token));
        bad.put("htm de la prueba DPoP no es el metodo de la peticion", key.proof("POST", OIDC_USERINFO, token));
        bad.put("htu de la prueba DPoP no es la URL de la peticion", key.proof("GET", API_USERINFO, token));
        for (var proof : bad.entrySet()) {
            HttpResponse<String> refused = get(OIDC_USERINFO, "Authorization", "DPoP " + token, "DPoP", proof.getValue());
            assertThat(refused.statusCode()).as(proof.getKey()).isEqualTo(401);
            assertThat(refused.body()).isEqualTo("{\"error\":\"invalid_dpop_proof\",\"error_description\":\""
                    + proof.getKey() + "\"}");
            assertThat(refused.headers().firstValue("WWW-Authenticate"))
                    .hasValue("DPoP error=\"invalid_dpop_proof\", " + DPOP_CHALLENGE_ALGS);
        }
        String once = key.proof("GET", OIDC_USERINFO, token);
        assertThat(get(OIDC_USERINFO, "Authorization", "DPoP " + token, "DPoP", once).statusCode()).isEqualTo(200);
        assertThat(json(get(OIDC_USERINFO, "Authorization", "DPoP " + token, "DPoP", once))
                .get("error_description").asString())
                .isEqualTo("Prueba DPoP ya utilizada: cada peticion lleva una prueba nueva (jti)");
    }

    @Test
    void aRefusedProofAtTheTokenEndpointSpendsNoCode() {
        var client = newClient();
        String code = authorize(player.browser(), client, "openid");
        var form = exchangeForm(client, code);

        HttpResponse<String> stale = new WebClient(ISSUER).postForm("/oauth/token.php", form, "DPoP",
                key.proof(UUID.randomUUID().toString(), "POST", TOKEN, Instant.now().minusSeconds(120), null));
        assertThat(stale.statusCode()).isEqualTo(400);
        assertThat(stale.body()).isEqualTo("{\"error\":\"invalid_dpop_proof\",\"error_description\":\"iat de la prueba "
                + "DPoP fuera de la ventana de 60 segundos\"}");
        assertThat(stale.headers().firstValue("Cache-Control")).hasValue("no-store");
        HttpResponse<String> elsewhere = new WebClient(ISSUER).postForm("/oauth/token.php", form, "DPoP",
                key.proof("POST", ISSUER + "/oauth/par.php"));
        assertThat(json(elsewhere).get("error_description").asString())
                .isEqualTo("htu de la prueba DPoP no es la URL de la peticion");
        HttpResponse<String> twice = new WebClient(ISSUER).postForm("/oauth/token.php", form, "DPoP",
                key.proof("POST", TOKEN), "DPoP", key.proof("POST", TOKEN));
        assertThat(twice.body()).isEqualTo("{\"error\":\"invalid_request\",\"error_description\":\"Una sola cabecera "
                + "DPoP por peticion\"}");

        String proof = key.proof("POST", TOKEN);
        HttpResponse<String> exchanged = new WebClient(ISSUER).postForm("/oauth/token.php", form, "DPoP", proof);
        assertThat(exchanged.statusCode()).as("the code was not spent by the refusals").isEqualTo(200);
        assertThat(json(exchanged).get("token_type").asString()).isEqualTo("DPoP");

        // the legacy errors come first, as for any request
        HttpResponse<String> wrongSecret = new WebClient(ISSUER).postForm("/oauth/token.php",
                Map.of("grant_type", "authorization_code", "code", code, "redirect_uri", client.redirectUri(),
                        "client_id", client.clientId(), "client_secret", "wrong"), "DPoP", "not-a-proof");
        assertThat(wrongSecret.body()).isEqualTo("{\"error\":\"client_secret incorrecto\"}");
    }

    @Test
    void anApplicationThatRequiresDPoPGetsNoTokenWithoutAProof() {
        var client = newClient(new SenderConstraints(false, true));
        HttpResponse<String> refused = exchangeWith(client, "openid");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).isEqualTo("{\"error\":\"invalid_dpop_proof\",\"error_description\":\"Esta aplicacion "
                + "exige DPoP: falta la cabecera DPoP con una prueba\"}");
        assertThat(json(exchangeWith(client, "openid", "DPoP", key.proof("POST", TOKEN))).get("token_type").asString())
                .isEqualTo("DPoP");
    }

    /** A first-party launcher (decisions §16) whose refresh tokens the player's key binds. */
    ClientService.NewCredentials launcher(SenderConstraints constraints) {
        var launcher = clients.register(accounts.findByEmail("dev@example.com").orElseThrow().getId(), "Lanzador",
                "http://127.0.0.1/cb/" + UUID.randomUUID().toString().substring(0, 8), List.of(), ClientType.NATIVE, null,
                constraints);
        clients.setFirstParty(new Caller(accounts.findByEmail("admin@example.com").orElseThrow().getId(), true),
                launcher.clientId(), true);
        return launcher;
    }

    /** The launcher's login: PKCE, then the code exchange with its client_id alone and a proof of {@link #key}. */
    JsonNode launcherLogin(ClientService.NewCredentials launcher) {
        String verifier = "v" + UUID.randomUUID() + UUID.randomUUID();
        String code = authorize(player.browser(), launcher, "openid", Map.of("state", "st",
                "code_challenge", AuthorizationCodeExchange.s256(verifier), "code_challenge_method", "S256"));
        HttpResponse<String> answer = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of(
                "grant_type", "authorization_code", "code", code, "redirect_uri", launcher.redirectUri(),
                "client_id", launcher.clientId(), "code_verifier", verifier), "DPoP", key.proof("POST", TOKEN));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return json(answer);
    }

    static HttpResponse<String> refresh(ClientService.NewCredentials launcher, String refreshToken, String... headers) {
        return new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", "refresh_token",
                "refresh_token", refreshToken, "client_id", launcher.clientId()), headers);
    }

    @Test
    void aPublicClientsRefreshTokenIsRefusedWithoutItsKey() {
        var launcher = launcher(SenderConstraints.NONE);
        JsonNode tokens = launcherLogin(launcher);
        String refreshToken = tokens.get("refresh_token").asString();
        assertThat(tokens.get("token_type").asString()).isEqualTo("DPoP");
        assertThat(jdbc.queryForObject("select dpop_jkt from refresh_tokens where client_id = ?", String.class,
                launcher.clientId())).isEqualTo(key.thumbprint());

        // a thief with the refresh token but not the key: refused, and the token is neither spent nor its family revoked
        String missing = "{\"error\":\"invalid_dpop_proof\",\"error_description\":\"Token ligado a una clave DPoP: "
                + "envialo con Authorization: DPoP y una prueba de esa clave\"}";
        assertThat(refresh(launcher, refreshToken).body()).isEqualTo(missing);
        HttpResponse<String> otherKey = refresh(launcher, refreshToken, "DPoP", DPoPKey.generate().proof("POST", TOKEN));
        assertThat(otherKey.statusCode()).isEqualTo(400);
        assertThat(otherKey.body()).isEqualTo("{\"error\":\"invalid_dpop_proof\",\"error_description\":\"La prueba DPoP "
                + "no es de la clave a la que esta ligado el token\"}");

        // the launcher with its key: rotated, and the new tokens are bound to the same key
        HttpResponse<String> refreshed = refresh(launcher, refreshToken, "DPoP", key.proof("POST", TOKEN));
        assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
        JsonNode next = json(refreshed);
        assertThat(next.get("token_type").asString()).isEqualTo("DPoP");
        String access = next.get("access_token").asString();
        assertThat(get(API_USERINFO, "Authorization", "DPoP " + access, "DPoP", key.proof("GET", API_USERINFO, access))
                .statusCode()).isEqualTo(200);
        assertThat(jdbc.queryForList("select dpop_jkt from refresh_tokens where client_id = ?", String.class,
                launcher.clientId())).containsExactly(key.thumbprint(), key.thumbprint());
        assertThat(refresh(launcher, next.get("refresh_token").asString()).body()).isEqualTo(missing);
    }

    @Test
    void aConfidentialClientsRefreshBindsTheAccessTokenButNotTheRefreshToken() {
        var client = newClient();
        String code = authorize(player.browser(), client, "openid offline_access");
        JsonNode tokens = json(new WebClient(ISSUER).postForm("/oauth/token.php", exchangeForm(client, code), "DPoP",
                key.proof("POST", TOKEN)));
        assertThat(jdbc.queryForObject("select dpop_jkt from refresh_tokens where client_id = ?", String.class,
                client.clientId())).as("a confidential client's refresh token is bound by its secret").isNull();

        DPoPKey newKey = DPoPKey.generate();
        HttpResponse<String> refreshed = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of(
                "grant_type", "refresh_token", "refresh_token", tokens.get("refresh_token").asString()), "Authorization",
                TokenEndpointIT.basic(client.clientId(), client.clientSecret()), "DPoP", newKey.proof("POST", TOKEN));
        assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
        assertThat(json(refreshed).get("token_type").asString()).isEqualTo("DPoP");
        String access = json(refreshed).get("access_token").asString();
        assertThat(get(API_USERINFO, "Authorization", "DPoP " + access, "DPoP", newKey.proof("GET", API_USERINFO, access))
                .statusCode()).isEqualTo(200);
    }

    @Test
    void aBoundPlayersTokenGetsATicketOnlyWithAProofOfItsKey() {
        long dev = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var server = clients.register(dev, "Servidor", null, List.of(), ClientType.SERVER);
        var game = newClient();
        String token = boundToken(game);
        Map<String, String> form = TicketExchangeIT.ticketForm(token, server.clientId());
        String basic = TokenEndpointIT.basic(game.clientId(), game.clientSecret());

        HttpResponse<String> without = new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization", basic);
        assertThat(without.statusCode()).isEqualTo(400);
        assertThat(json(without).get("error").asString()).isEqualTo("invalid_dpop_proof");
        HttpResponse<String> otherKey = new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization", basic,
                "DPoP", DPoPKey.generate().proof("POST", TOKEN));
        assertThat(json(otherKey).get("error_description").asString())
                .isEqualTo("La prueba DPoP no es de la clave a la que esta ligado el token");

        String proof = key.proof("POST", TOKEN);
        TicketExchangeIT.ticketOf(new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization", basic,
                "DPoP", proof));
        HttpResponse<String> replayed = new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization", basic,
                "DPoP", proof);
        assertThat(json(replayed).get("error_description").asString())
                .isEqualTo("Prueba DPoP ya utilizada: cada peticion lleva una prueba nueva (jti)");
    }

    @Test
    void aConsoleGetsTokensBoundToItsKey() {
        var console = clients.register(accounts.findByEmail("dev@example.com").orElseThrow().getId(), "Consola", null,
                List.of(), ClientType.DEVICE);
        JsonNode started = json(new WebClient(ISSUER).postForm("/oauth/device.php", Map.of("client_id", console.clientId(),
                "scope", "openid")));
        assertThat(DeviceFlowIT.activar(player.browser(), started.get("user_code").asString(), "allow").statusCode())
                .isEqualTo(200);
        HttpResponse<String> polled = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of(
                "grant_type", "urn:ietf:params:oauth:grant-type:device_code",
                "device_code", started.get("device_code").asString(), "client_id", console.clientId()),
                "DPoP", key.proof("POST", TOKEN));
        assertThat(polled.statusCode()).as(polled.body()).isEqualTo(200);
        assertThat(json(polled).get("token_type").asString()).isEqualTo("DPoP");
        assertThat(jdbc.queryForList("select dpop_jkt from api_tokens where client_id = ?", String.class,
                console.clientId())).containsExactly(key.thumbprint());
        assertThat(jdbc.queryForList("select dpop_jkt from refresh_tokens where client_id = ?", String.class,
                console.clientId())).containsExactly(key.thumbprint());
    }

    @Test
    void aGameServersOwnTokenIsNotBound() {
        var server = clients.register(accounts.findByEmail("dev@example.com").orElseThrow().getId(), "Servidor", null,
                List.of(), ClientType.SERVER);
        HttpResponse<String> answer = new WebClient(ISSUER).postForm("/oauth/token.php",
                Map.of("grant_type", "client_credentials"), "Authorization",
                TokenEndpointIT.basic(server.clientId(), server.clientSecret()), "DPoP", key.proof("POST", TOKEN));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(json(answer).get("token_type").asString()).isEqualTo("Bearer");
    }

    @Test
    void seenProofsAreKeptOnlyWhileTheyCouldBeAccepted() {
        String token = boundToken(newClient());
        assertThat(get(API_USERINFO, "Authorization", "DPoP " + token, "DPoP", key.proof("GET", API_USERINFO, token))
                .statusCode()).isEqualTo(200);
        Integer rows = jdbc.queryForObject("select count(*) from dpop_proofs where expires_at > ?", Integer.class,
                java.sql.Timestamp.from(Instant.now().plusSeconds(61)));
        assertThat(rows).as("no proof is kept longer than iat + 60 s").isZero();
        assertThat(jdbc.queryForObject("select count(*) from dpop_proofs", Integer.class)).isPositive();
    }
}
