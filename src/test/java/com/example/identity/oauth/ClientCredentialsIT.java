package com.example.identity.oauth;

import static com.example.identity.oauth.RefreshTokenIT.assertStandardError;
import static com.example.identity.oauth.TokenEndpointIT.assertError;
import static com.example.identity.oauth.TokenEndpointIT.basic;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/**
 * Game servers (decisions §21): a {@code servidor} application gets its own access token with the client
 * credentials grant, by {@code client_secret_basic} or {@code client_secret_post}; no other type gets it,
 * and the legacy token endpoint's first refusal stays what it was for them; the token speaks for no user
 * ({@code /api/userinfo.php} is 403 {@code Permiso denegado}) and introspects the tokens of its owner's
 * applications only, presented as a bearer token or with the server's secret.
 */
class ClientCredentialsIT extends OAuthTestBase {

    static final String TOKEN_BODY = "\\{\"access_token\":\"[0-9a-f]{64}\",\"token_type\":\"Bearer\",\"expires_in\":3600}";

    @Autowired
    ApiTokenService apiTokens;

    long ownerId;
    ClientService.NewCredentials server;

    @BeforeEach
    void aDevelopersGameServer() {
        ownerId = accounts.create("Sergio", "s-" + UUID.randomUUID() + "@example.com", "correct-password-123",
                Role.DEVELOPER_API).getId();
        server = clients.register(ownerId, "Servidor de partidas", null, List.of(), ClientType.SERVER);
    }

    static HttpResponse<String> grantBasic(ClientService.NewCredentials app, Map<String, String> extra) {
        var form = new java.util.LinkedHashMap<String, String>();
        form.put("grant_type", "client_credentials");
        form.putAll(extra);
        return new WebClient(ISSUER).postForm("/oauth/token.php", form, "Authorization",
                basic(app.clientId(), app.clientSecret()));
    }

    static HttpResponse<String> grantPost(String clientId, String secret) {
        return new WebClient(ISSUER).postForm("/oauth/token.php",
                Map.of("grant_type", "client_credentials", "client_id", clientId, "client_secret", secret));
    }

    static String tokenOf(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).matches(TOKEN_BODY);
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        return json(response).get("access_token").asString();
    }

    @Test
    void aServerGetsItsOwnTokenWithBasicOrWithTheForm() {
        String byBasic = tokenOf(grantBasic(server, Map.of()));
        String byForm = tokenOf(grantPost(server.clientId(), server.clientSecret()));

        assertThat(byBasic).isNotEqualTo(byForm);
        Integer stored = jdbc.queryForObject("""
                select count(*) from api_tokens where client_id = ? and kind = 'servidor' and user_id = ?
                    and authorization_id is null and revoked_at is null""", Integer.class, server.clientId(), ownerId);
        assertThat(stored).isEqualTo(2);
        Integer authorizations = jdbc.queryForObject("select count(*) from oauth_authorizations where client_id = ?",
                Integer.class, server.clientId());
        assertThat(authorizations).as("a server's grant keeps no authorization").isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = { "web", "nativa", "dispositivo" })
    void everyOtherTypeHearsWhatItAlwaysHeard(String type) {
        var other = switch (type) {
            case "web" -> clients.register(ownerId, "Web", "https://app.example/cb", List.of(), ClientType.WEB);
            case "nativa" -> clients.register(ownerId, "Lanzador", "http://127.0.0.1/cb", List.of(), ClientType.NATIVE);
            default -> clients.register(ownerId, "Consola", null, List.of(), ClientType.DEVICE);
        };
        String secret = other.clientSecret() == null ? "x" : other.clientSecret();

        assertError(grantPost(other.clientId(), secret), 400, "grant_type inválido");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", "client_credentials"),
                "Authorization", basic(other.clientId(), secret)), 400, "grant_type inválido");
    }

    @Test
    void anUnknownClientOrNoneHearsGrantTypeInvalidFirstAsBefore() {
        assertError(grantPost("no-such-client", "x"), 400, "grant_type inválido");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", "client_credentials")),
                400, "grant_type inválido");
    }

    @Test
    void theServersOwnChecksComeInTheTableOrder() {
        var wrongSecret = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", "client_credentials"),
                "Authorization", basic(server.clientId(), "wrong"));
        assertError(wrongSecret, 401, "client_secret incorrecto");
        assertThat(wrongSecret.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"oauth\"");
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php",
                Map.of("grant_type", "client_credentials", "client_id", server.clientId())), 400,
                "Faltan parámetros obligatorios");

        assertStandardError(grantBasic(server, Map.of("scope", "openid")), 400, "invalid_scope",
                "Una aplicacion de tipo servidor no pide alcances");

        clients.revoke(server.clientId());
        assertError(grantBasic(server, Map.of()), 401, "client_revoked");
    }

    @Test
    void itsTokenSpeaksForNoUser() {
        String token = tokenOf(grantBasic(server, Map.of()));

        var games = TokenEndpointIT.userinfo(token);
        assertThat(games.statusCode()).isEqualTo(403);
        assertThat(games.body()).isEqualTo("{\"ok\":false,\"error\":\"Permiso denegado\"}");
        var management = new WebClient(ISSUER).get("/api/tokens/list.php", "Authorization", "Bearer " + token);
        assertThat(management.statusCode()).isEqualTo(403);
        assertThat(management.body()).isEqualTo("{\"ok\":false,\"error\":\"Permiso denegado\"}");
        var oidc = new WebClient(ISSUER).get("/oauth/userinfo.php", "Authorization", "Bearer " + token);
        assertThat(oidc.statusCode()).isEqualTo(403);
        assertThat(oidc.headers().firstValue("WWW-Authenticate"))
                .hasValue("Bearer error=\"insufficient_scope\", scope=\"openid\"");
    }

    @Test
    void itIntrospectsTheTokensOfItsOwnersApplicationsOnly() {
        var ownersGame = clients.register(ownerId, "Juego", "https://juego.example/cb", List.of(), ClientType.WEB);
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), ownersGame.clientId(), true);
        User player = newLoggedInUser("Paula");
        String playersToken = json(exchange(ownersGame, authorize(player.browser(), ownersGame, "openid profile", Map.of())))
                .get("access_token").asString();
        var othersGame = newClient(); // the demo developer's, not this server's owner's
        String othersToken = json(exchange(othersGame, authorize(player.browser(), othersGame, "openid", Map.of())))
                .get("access_token").asString();
        String serverToken = tokenOf(grantBasic(server, Map.of()));

        var own = introspectWithBearer(serverToken, playersToken);
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        assertThat(json(own).get("active").asBoolean()).isTrue();
        assertThat(json(own).get("sub").asString()).isEqualTo("user:" + player.id());
        assertThat(json(own).get("client_id").asString()).isEqualTo(ownersGame.clientId());

        var others = introspectWithBearer(serverToken, othersToken);
        assertThat(others.body()).isEqualTo("{\"active\":false}");
        // with its secret, the same rule
        var bySecret = new WebClient(ISSUER).postForm("/oauth/introspect.php", Map.of("token", othersToken),
                "Authorization", basic(server.clientId(), server.clientSecret()));
        assertThat(bySecret.body()).isEqualTo("{\"active\":false}");
        // a user's token is no client's credential
        assertStandardError(introspectWithBearer(playersToken, playersToken), 401, "invalid_client",
                "Token de acceso invalido, caducado o revocado");
    }

    @Test
    void itKeepsWorkingWhenItsOwnerIsNoLongerADeveloper() {
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        String before = tokenOf(grantBasic(server, Map.of()));

        assertThat(administration.changeRole(new Caller(admin, true), ownerId, Role.USER)).isTrue();

        String after = tokenOf(grantBasic(server, Map.of()));
        var self = introspectWithBearer(after, before);
        assertThat(json(self).get("active").asBoolean()).as(self.body()).isTrue();
        assertThat(json(self).has("sub")).as("a server's token has no user").isFalse();
    }

    @Test
    void aScriptRegistersAServerThroughTheManagementRoute() {
        String auth = "Bearer " + apiTokens.createPersonal(ownerId, "cli", TokenScope.GESTION).value();
        var web = new WebClient(ISSUER);

        var created = web.postForm("/api/clients/create.php", Map.of("name", "Partidas", "type", "servidor"),
                "Authorization", auth);

        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        assertThat(created.body()).matches("\\{\"ok\":true,\"client\":\\{\"client_id\":\"[A-Za-z0-9_-]+\","
                + "\"client_secret\":\"[0-9a-f]{64}\",\"name\":\"Partidas\",\"redirect_uri\":null,"
                + "\"type\":\"servidor\",\"post_logout_redirect_uris\":\\[],\"par_obligatorio\":false,"
                + "\"dpop_obligatorio\":false,\"invitados\":false}}");
        var client = json(created).get("client");
        tokenOf(grantPost(client.get("client_id").asString(), client.get("client_secret").asString()));
        ApiAssertions.assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "X",
                "redirect_uri", "https://x.example/cb", "type", "servidor"), "Authorization", auth), 400,
                "Una aplicación de tipo servidor no tiene redirect_uri");
    }

    @Test
    void discoveryListsTheGrant() {
        var doc = json(new WebClient(ISSUER).get("/.well-known/openid-configuration"));
        assertThat(doc.get("grant_types_supported").toString()).contains("\"client_credentials\"");
    }

    static HttpResponse<String> introspectWithBearer(String bearer, String token) {
        return new WebClient(ISSUER).postForm("/oauth/introspect.php", Map.of("token", token),
                "Authorization", "Bearer " + bearer);
    }
}
