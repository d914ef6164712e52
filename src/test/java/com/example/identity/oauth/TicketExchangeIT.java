package com.example.identity.oauth;

import static com.example.identity.oauth.RefreshTokenIT.assertStandardError;
import static com.example.identity.oauth.TokenEndpointIT.assertError;
import static com.example.identity.oauth.TokenEndpointIT.basic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.id.Audience;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.AccessTokenType;
import com.nimbusds.oauth2.sdk.token.TokenTypeURI;
import com.nimbusds.oauth2.sdk.tokenexchange.TokenExchangeGrant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.GameServer;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;

/**
 * Tickets for game servers (decisions §25) over real HTTP: a player's game (web, native or device) exchanges the
 * player's access token for a ticket for one of its owner's {@code servidor} applications, which checks it offline as
 * docs/game-servers.md shows ({@link GameServer}); the refusals, each in its shape; the legacy order first; a ticket
 * is good for nothing else.
 */
class TicketExchangeIT extends OAuthTestBase {

    static final String GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
    static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
    static final String JWT_TYPE = "urn:ietf:params:oauth:token-type:jwt";
    /** The whole answer, byte for byte (decisions §25), with the default lifetime. */
    static final Pattern ANSWER = Pattern.compile("\\{\"access_token\":\"([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)\","
            + "\"issued_token_type\":\"urn:ietf:params:oauth:token-type:jwt\",\"token_type\":\"N_A\",\"expires_in\":60}");
    static final String NOT_A_SERVER = "audience debe ser el client_id de una aplicacion de tipo servidor del mismo propietario";
    static final String BAD_SUBJECT = "subject_token invalido, caducado, revocado o de otra aplicacion";

    @Autowired
    ApiTokenService apiTokens;

    @Autowired
    MovableClock clock;

    long dev;
    ClientService.NewCredentials server;
    User player;

    @BeforeEach
    void aDevelopersGameServerAndAPlayer() {
        dev = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        server = clients.register(dev, "Servidor de partidas", null, List.of(), ClientType.SERVER);
        player = newLoggedInUser("Paula");
    }

    /** The form a game sends: the player's token and the server's client_id. */
    static Map<String, String> ticketForm(String subjectToken, String audience) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", GRANT);
        form.put("subject_token", subjectToken);
        form.put("subject_token_type", ACCESS_TOKEN_TYPE);
        form.put("audience", audience);
        return form;
    }

    /** {@code game} asks: with HTTP Basic when it has a secret, with its client_id alone when it is public. */
    static HttpResponse<String> askTicket(ClientService.NewCredentials game, Map<String, String> form) {
        if (game.clientSecret() == null) {
            Map<String, String> withId = new LinkedHashMap<>(form);
            withId.put("client_id", game.clientId());
            return new WebClient(ISSUER).postForm("/oauth/token.php", withId);
        }
        return new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization",
                basic(game.clientId(), game.clientSecret()));
    }

    static HttpResponse<String> askTicket(ClientService.NewCredentials game, String subjectToken, String audience) {
        return askTicket(game, ticketForm(subjectToken, audience));
    }

    /** The ticket of a successful answer, after checking the answer byte for byte and its headers. */
    static String ticketOf(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Matcher answer = ANSWER.matcher(response.body());
        assertThat(answer.matches()).as(response.body()).isTrue();
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
        return answer.group(1);
    }

    /** A first-party web game of the demo developer, and the player's access token for it (a code flow). */
    String playersTokenAt(ClientService.NewCredentials webGame) {
        return json(exchange(webGame, authorize(player.browser(), webGame, "openid profile"))).get("access_token").asString();
    }

    @Test
    void aWebGameGetsATicketForItsOwnersServerWhichVerifiesItOfflineOnce() throws Exception {
        var game = newClient();
        String playersToken = playersTokenAt(game);
        Instant before = Instant.now().minusSeconds(1);

        String ticket = ticketOf(askTicket(game, playersToken, server.clientId()));

        SignedJWT jwt = SignedJWT.parse(ticket);
        assertThat(jwt.getHeader().getType()).isEqualTo(new JOSEObjectType("ticket+jwt"));
        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        JWKSet keys = JWKSet.parse(new WebClient(ISSUER).get("/oauth/jwks.json").body());
        assertThat(keys.getKeyByKeyId(jwt.getHeader().getKeyID())).as("signed with a key of the JWKS").isNotNull();
        JWTClaimsSet claims = jwt.getJWTClaimsSet();
        assertThat(claims.getClaims().keySet()).containsExactlyInAnyOrder("iss", "sub", "aud", "azp", "iat", "exp", "jti",
                "primer_nombre", "rol", "invitado");
        assertThat(claims.getIssuer()).isEqualTo(ISSUER);
        assertThat(claims.getSubject()).isEqualTo("user:" + player.id());
        assertThat(claims.getAudience()).containsExactly(server.clientId());
        assertThat(claims.getStringClaim("azp")).isEqualTo(game.clientId());
        assertThat(claims.getIssueTime().toInstant()).isBetween(before, Instant.now().plusSeconds(1));
        assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
                .isEqualTo(Duration.ofSeconds(60));
        assertThat(claims.getJWTID()).isNotBlank();
        assertThat(claims.getStringClaim("primer_nombre")).isEqualTo("Paula");
        assertThat(claims.getStringClaim("rol")).isEqualTo("user");
        assertThat(claims.getBooleanClaim("invitado")).isFalse();

        // the server, as the documentation shows: offline, once
        var gameServer = new GameServer(ISSUER, server.clientId());
        assertThat(gameServer.accept(ticket).getSubject()).isEqualTo("user:" + player.id());
        assertThatThrownBy(() -> gameServer.accept(ticket)).isInstanceOf(BadJOSEException.class)
                .hasMessage("Ticket ya usado");

        // client_secret_post too; every ticket is new, and none is stored
        Map<String, String> form = ticketForm(playersToken, server.clientId());
        form.put("client_id", game.clientId());
        form.put("client_secret", game.clientSecret());
        String second = ticketOf(new WebClient(ISSUER).postForm("/oauth/token.php", form));
        assertThat(SignedJWT.parse(second).getJWTClaimsSet().getJWTID()).isNotEqualTo(claims.getJWTID());
        assertThat(gameServer.accept(second).getSubject()).isEqualTo("user:" + player.id());
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where client_id = ? or client_id = ?",
                Integer.class, game.clientId(), server.clientId())).as("the player's token only").isEqualTo(1);
    }

    @Test
    void aNativeGameAsksWithItsClientIdAloneThroughNimbusAndTheServerChecksTheTicket() throws Exception {
        var launcher = clients.register(dev, "Lanzador", "http://127.0.0.1/callback", List.of(), ClientType.NATIVE);
        clients.setFirstParty(new Caller(dev, true), launcher.clientId(), true);
        URI redirect = URI.create("http://127.0.0.1:" + ThreadLocalRandom.current().nextInt(20_000, 60_000) + "/callback");
        CodeVerifier verifier = new CodeVerifier();
        var request = NativeClientIT.request(launcher, redirect, verifier).toURI();
        URI back = URI.create(WebClient.location(player.browser().get(request.getRawPath() + "?" + request.getRawQuery())));
        var code = AuthorizationResponse.parse(back).toSuccessResponse().getAuthorizationCode();
        var tokens = NativeClientIT.tokens(new TokenRequest(uri("/oauth/token.php"), new ClientID(launcher.clientId()),
                new AuthorizationCodeGrant(code, redirect, verifier)));

        // the launcher asks, as Nimbus's token exchange grant asks (requested_token_type: a JWT)
        TokenResponse response = TokenResponse.parse(new TokenRequest(uri("/oauth/token.php"), new ClientID(launcher.clientId()),
                new TokenExchangeGrant(tokens.getAccessToken(), TokenTypeURI.ACCESS_TOKEN, null, null, TokenTypeURI.JWT,
                        List.of(new Audience(server.clientId())))).toHTTPRequest().send());

        assertThat(response.indicatesSuccess()).as(() -> response.toErrorResponse().getErrorObject().toString()).isTrue();
        var ticket = ((AccessTokenResponse) response.toSuccessResponse()).getTokens().getAccessToken();
        assertThat(ticket.getType()).isEqualTo(AccessTokenType.N_A);
        assertThat(ticket.getIssuedTokenType()).isEqualTo(TokenTypeURI.JWT);
        assertThat(ticket.getLifetime()).isEqualTo(60);
        JWTClaimsSet claims = new GameServer(ISSUER, server.clientId()).accept(ticket.getValue());
        assertThat(claims.getSubject()).isEqualTo("user:" + player.id());
        assertThat(claims.getStringClaim("azp")).isEqualTo(launcher.clientId());
    }

    @Test
    void aConsoleAsksWithItsClientIdAlone() throws Exception {
        var console = clients.register(dev, "Consola", null, List.of(), ClientType.DEVICE);
        var started = json(DeviceFlowIT.start(console.clientId(), "openid"));
        var approved = DeviceFlowIT.activar(player.browser(), started.get("user_code").asString(), "allow");
        assertThat(approved.body()).contains("id=\"activate-done\"");
        var polled = DeviceFlowIT.poll(console.clientId(), started.get("device_code").asString());
        assertThat(polled.statusCode()).as(polled.body()).isEqualTo(200);

        String ticket = ticketOf(askTicket(console, json(polled).get("access_token").asString(), server.clientId()));

        JWTClaimsSet claims = new GameServer(ISSUER, server.clientId()).accept(ticket);
        assertThat(claims.getSubject()).isEqualTo("user:" + player.id());
        assertThat(claims.getStringClaim("azp")).isEqualTo(console.clientId());
    }

    @Test
    void theAudienceMustBeOneServerOfTheGamesOwner() {
        var game = newClient();
        String playersToken = playersTokenAt(game);
        long otherDeveloper = accounts.create("Otra", "o-" + UUID.randomUUID() + "@example.com", "correct-password-123",
                Role.DEVELOPER_API).getId();
        var othersServer = clients.register(otherDeveloper, "Servidor ajeno", null, List.of(), ClientType.SERVER);
        var revokedServer = clients.register(dev, "Servidor retirado", null, List.of(), ClientType.SERVER);
        clients.revoke(revokedServer.clientId());

        for (String audience : List.of(othersServer.clientId(), revokedServer.clientId(), newClient().clientId(),
                game.clientId(), "no-such-client")) {
            assertStandardError(askTicket(game, playersToken, audience), 400, "invalid_target", NOT_A_SERVER);
        }
        String both = WebClient.encode(ticketForm(playersToken, server.clientId())) + "&audience=" + othersServer.clientId();
        assertStandardError(new WebClient(ISSUER).postRaw("/oauth/token.php", both, "Authorization",
                basic(game.clientId(), game.clientSecret())), 400, "invalid_target",
                "Un ticket es para un solo servidor: envia un solo audience");
        ticketOf(askTicket(game, playersToken, server.clientId()));
    }

    @Test
    void theSubjectTokenMustBeAValidAccessTokenIssuedToThisGame() {
        var game = newClient();
        var otherGame = newClient(); // the same owner's other application
        String othersToken = playersTokenAt(otherGame);
        String personal = apiTokens.createPersonal(dev, "cli").value();
        String serversOwn = json(ClientCredentialsIT.grantBasic(server, Map.of())).get("access_token").asString();

        for (String subject : List.of(othersToken, personal, serversOwn, "0".repeat(64), "not-a-token")) {
            assertStandardError(askTicket(game, subject, server.clientId()), 400, "invalid_grant", BAD_SUBJECT);
        }
        // the other application's token is good for the other application
        ticketOf(askTicket(otherGame, othersToken, server.clientId()));
    }

    @Test
    void aRevokedSubjectTokenIsRefusedAtOnce() {
        var game = newClient();
        String playersToken = playersTokenAt(game);
        ticketOf(askTicket(game, playersToken, server.clientId())); // now in the cache

        var revoked = new WebClient(ISSUER).postForm("/oauth/revoke.php", Map.of("token", playersToken),
                "Authorization", basic(game.clientId(), game.clientSecret()));
        assertThat(revoked.statusCode()).isEqualTo(200);

        assertStandardError(askTicket(game, playersToken, server.clientId()), 400, "invalid_grant", BAD_SUBJECT);
    }

    @Test
    void anExpiredSubjectTokenIsRefused() {
        var game = newClient();
        String playersToken = playersTokenAt(game);
        ticketOf(askTicket(game, playersToken, server.clientId())); // now in the cache

        clock.advance(Duration.ofHours(1).plusSeconds(1));

        assertStandardError(askTicket(game, playersToken, server.clientId()), 400, "invalid_grant", BAD_SUBJECT);
    }

    @Test
    void aDisabledPlayerGetsNoTicket() {
        var game = newClient();
        String playersToken = playersTokenAt(game);
        ticketOf(askTicket(game, playersToken, server.clientId()));

        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        administration.disable(new Caller(admin, true), player.id());

        assertStandardError(askTicket(game, playersToken, server.clientId()), 400, "invalid_grant", BAD_SUBJECT);
    }

    @Test
    void aServerOrAnUnknownClientAskingHearsGrantTypeInvalidAsBefore() {
        var game = newClient();
        String playersToken = playersTokenAt(game);

        assertError(askTicket(server, playersToken, server.clientId()), 400, "grant_type inválido");
        Map<String, String> unknown = ticketForm(playersToken, server.clientId());
        unknown.put("client_id", "no-such-client");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", unknown), 400, "grant_type inválido");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", ticketForm(playersToken, server.clientId())), 400,
                "grant_type inválido");
    }

    @Test
    void theLegacyChecksComeFirstInTheirOrder() {
        var game = newClient();
        String playersToken = playersTokenAt(game);

        var get = new WebClient(ISSUER).get("/oauth/token.php?grant_type=" + GRANT);
        assertError(get, 405, "Método no permitido, usa POST");
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");
        Map<String, String> noSecret = ticketForm(playersToken, server.clientId());
        noSecret.put("client_id", game.clientId());
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", noSecret), 400, "Faltan parámetros obligatorios");
        noSecret.put("client_secret", "wrong");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", noSecret), 401, "client_secret incorrecto");
        // a parameter of the grant missing too: the client's checks still come first
        Map<String, String> bare = new LinkedHashMap<>(Map.of("grant_type", GRANT));
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", bare, "Authorization",
                basic(game.clientId(), "wrong")), 401, "client_secret incorrecto");

        clients.revoke(game.clientId());
        assertError(askTicket(game, playersToken, server.clientId()), 401, "client_revoked");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "subject_token|          | invalid_request | Falta el parametro subject_token",
            "subject_token_type|     | invalid_request | Falta el parametro subject_token_type",
            "subject_token_type| urn:ietf:params:oauth:token-type:jwt | invalid_request | subject_token_type debe ser urn:ietf:params:oauth:token-type:access_token",
            "audience|               | invalid_request | Falta el parametro audience: el client_id del servidor de juego",
            "requested_token_type| urn:ietf:params:oauth:token-type:access_token | invalid_request | requested_token_type: solo se emiten tickets, urn:ietf:params:oauth:token-type:jwt",
            "resource| https://partidas.example | invalid_target | resource no se admite: el servidor de juego se indica con audience",
            "actor_token| abc        | invalid_request | actor_token no se admite: el ticket habla solo por el jugador",
            "scope| openid           | invalid_scope   | Un ticket no lleva alcances: no envies scope",
    })
    void theGrantsOwnParametersAreRefusedInTheRfcsShape(String name, String value, String error, String description) {
        var game = newClient();
        Map<String, String> form = ticketForm(playersTokenAt(game), server.clientId());
        if (value == null) {
            form.remove(name);
        }
        else {
            form.put(name, value);
        }
        assertStandardError(askTicket(game, form), 400, error, description);
    }

    @Test
    void aRepeatedSubjectTokenIsRefused() {
        var game = newClient();
        String playersToken = playersTokenAt(game);
        String twice = WebClient.encode(ticketForm(playersToken, server.clientId())) + "&subject_token=" + playersToken;
        assertStandardError(new WebClient(ISSUER).postRaw("/oauth/token.php", twice, "Authorization",
                basic(game.clientId(), game.clientSecret())), 400, "invalid_request", "Parametro repetido: subject_token");
    }

    @Test
    void aTicketIsGoodForNothingElse() {
        var game = newClient();
        String ticket = ticketOf(askTicket(game, playersTokenAt(game), server.clientId()));

        var api = TokenEndpointIT.userinfo(ticket);
        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(api.body()).isEqualTo("{\"ok\":false,\"error\":\"Token inválido o revocado\"}");
        var oidc = new WebClient(ISSUER).get("/oauth/userinfo.php", "Authorization", "Bearer " + ticket);
        assertThat(oidc.statusCode()).isEqualTo(401);
        var introspected = new WebClient(ISSUER).postForm("/oauth/introspect.php", Map.of("token", ticket),
                "Authorization", basic(server.clientId(), server.clientSecret()));
        assertThat(introspected.body()).isEqualTo("{\"active\":false}");
        assertStandardError(askTicket(game, ticket, server.clientId()), 400, "invalid_grant", BAD_SUBJECT);
        // nor for another server of the same owner
        var otherServer = clients.register(dev, "Otro servidor", null, List.of(), ClientType.SERVER);
        assertThatThrownBy(() -> new GameServer(ISSUER, otherServer.clientId()).accept(ticket))
                .isInstanceOf(BadJOSEException.class).hasMessage("JWT aud claim rejected");
    }

    @Test
    void anIdTokenOrAnExpiredTicketDoesNotPassForATicket() throws Exception {
        var game = newClient();
        var code = authorize(player.browser(), game, "openid profile");
        var exchanged = json(exchange(game, code));
        String ticket = ticketOf(askTicket(game, exchanged.get("access_token").asString(), server.clientId()));

        // an id_token of this issuer, signed with the same keys, is not a ticket: its typ says so
        assertThatThrownBy(() -> new GameServer(ISSUER, game.clientId()).accept(exchanged.get("id_token").asString()))
                .isInstanceOf(BadJOSEException.class).hasMessageContaining("type");
        // the server's clock past exp and the skew of the page
        var later = new GameServer(ISSUER, server.clientId(), () -> Instant.now().plusSeconds(60 + 61));
        assertThatThrownBy(() -> later.accept(ticket)).isInstanceOf(BadJOSEException.class).hasMessageContaining("Expired");
        assertThat(new GameServer(ISSUER, server.clientId()).accept(ticket).getSubject()).isEqualTo("user:" + player.id());
    }
}
