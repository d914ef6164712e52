package com.example.identity.oauth;

import static com.example.identity.oauth.DeviceFlowIT.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;

/**
 * Guest players (decisions §24) over real HTTP: a game's first start makes a guest with one call to
 * {@code /oauth/invitado.php}, whose answer the Nimbus OAuth 2.0 SDK reads as any token response, with an id_token it
 * validates against the key set; the guest's tokens are ordinary tokens of that application (UserInfo, the refresh
 * grant with its rotation); the refusals byte for byte; the per-address limit; what a guest may not do; and
 * {@code /api/invitados/convertir.php}'s single-use address.
 */
class GuestPlayersIT extends OAuthTestBase {

    static final String GUESTS = "/oauth/invitado.php";
    static final String CONVERT = "/api/invitados/convertir.php";

    @Autowired
    MovableClock clock;

    /** A launcher (type nativa) that accepts guests, as a developer registers one. */
    ClientService.NewCredentials game() {
        return app(ClientType.NATIVE, true);
    }

    ClientService.NewCredentials app(ClientType type, boolean guests) {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        String redirect = type == ClientType.NATIVE ? "http://127.0.0.1/juego" : type == ClientType.WEB
                ? "https://juego.example/cb/" + UUID.randomUUID() : null;
        return clients.register(owner, "Juego " + type.value(), redirect, List.of(), type, null,
                com.example.identity.client.SenderConstraints.NONE, guests);
    }

    /** A client address of its own for each call site (the loopback proxy is trusted in tests: X-Forwarded-For). */
    static String address() {
        var random = java.util.concurrent.ThreadLocalRandom.current();
        return "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + (1 + random.nextInt(254));
    }

    static HttpResponse<String> newGuest(String clientId, String scope, String from) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("client_id", clientId);
        if (scope != null) {
            form.put("scope", scope);
        }
        return new WebClient(ISSUER).postForm(GUESTS, form, "X-Forwarded-For", from);
    }

    static OIDCTokenResponse tokens(HttpResponse<String> answer) throws Exception {
        HTTPResponse http = new HTTPResponse(answer.statusCode());
        http.setHeader("Content-Type", answer.headers().firstValue("Content-Type").orElseThrow());
        http.setBody(answer.body());
        TokenResponse parsed = OIDCTokenResponseParser.parse(http);
        assertThat(parsed.indicatesSuccess()).as(answer.body()).isTrue();
        return (OIDCTokenResponse) parsed.toSuccessResponse();
    }

    long userOf(String accessToken) {
        return json(TokenEndpointIT.userinfo(accessToken)).get("user").get("id").asLong();
    }

    @Test
    void aGameMakesAGuestWithOneCallAndItsTokensAreOrdinaryTokensOfThatApplication() throws Exception {
        var game = game();
        HttpResponse<String> answer = newGuest(game.clientId(), "openid profile", address());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(answer.headers().allValues("Set-Cookie")).isEmpty();
        assertThat(json(answer).propertyNames()).containsExactly("access_token", "token_type", "expires_in",
                "refresh_token", "id_token");
        assertThat(json(answer).get("token_type").asString()).isEqualTo("Bearer");
        assertThat(json(answer).get("expires_in").asInt()).isEqualTo(3600);
        OIDCTokenResponse tokens = tokens(answer);
        String access = tokens.getOIDCTokens().getAccessToken().getValue();
        assertThat(access).matches("[0-9a-f]{64}");
        long id = userOf(access);

        // the id_token, checked as a relying party does: signature, issuer, audience
        var claims = new IDTokenValidator(new Issuer(ISSUER), new ClientID(game.clientId()), JWSAlgorithm.RS256,
                uri("/oauth/jwks.json").toURL()).validate(tokens.getOIDCTokens().getIDToken(), null);
        assertThat(claims.getSubject().getValue()).isEqualTo("user:" + id);
        assertThat(claims.getBooleanClaim("invitado")).isTrue();
        assertThat(claims.getStringClaim("name")).matches("Invitado \\d{4}");
        assertThat(claims.getClaim("email")).isNull();
        assertThat(claims.getDateClaim("auth_time")).isNotNull();

        // /api/userinfo.php: the four documented fields, no address
        HttpResponse<String> userinfo = TokenEndpointIT.userinfo(access);
        assertThat(userinfo.statusCode()).isEqualTo(200);
        String name = claims.getStringClaim("name");
        assertThat(userinfo.body()).isEqualTo("{\"ok\":true,\"user\":{\"id\":" + id + ",\"primer_nombre\":\"" + name
                + "\",\"correo\":null,\"rol\":\"invitado\"}}");
        // OpenID Connect's UserInfo with the same claims
        HttpResponse<String> oidc = new WebClient(ISSUER).get("/oauth/userinfo.php", "Authorization", "Bearer " + access);
        assertThat(oidc.body()).isEqualTo("{\"sub\":\"user:" + id + "\",\"name\":\"" + name + "\",\"given_name\":\""
                + name + "\",\"invitado\":true,\"menor\":false}");
        // what the account is: no address, a guest of that application
        assertThat(jdbc.queryForObject("select correo from users where id = ?", String.class, id)).isNull();
        assertThat(accounts.findById(id).orElseThrow().getRol()).isEqualTo(Role.INVITADO);
        assertThat(jdbc.queryForObject("select client_id from guests where user_id = ?", String.class, id))
                .isEqualTo(game.clientId());

        // the next start: the refresh grant with the client_id alone, rotated as any application's
        clock.advance(Duration.ofMinutes(5));
        TokenResponse refreshed = OIDCTokenResponseParser.parse(new TokenRequest(uri("/oauth/token.php"),
                new ClientID(game.clientId()), new RefreshTokenGrant(tokens.getOIDCTokens().getRefreshToken()))
                .toHTTPRequest().send());
        assertThat(refreshed.indicatesSuccess()).isTrue();
        var again = (OIDCTokenResponse) refreshed.toSuccessResponse();
        assertThat(again.getOIDCTokens().getRefreshToken()).isNotEqualTo(tokens.getOIDCTokens().getRefreshToken());
        assertThat(userOf(again.getOIDCTokens().getAccessToken().getValue())).isEqualTo(id);
        // the refresh is the guest's last use
        assertThat(jdbc.queryForObject("select last_used_at from guests where user_id = ?", OffsetDateTime.class, id)
                .toInstant()).isAfter(clock.instant().minusSeconds(60));
        // the first refresh token again: a replay, the family revoked (RFC 9700 §4.14)
        assertError(new WebClient(ISSUER).postForm("/oauth/token.php", Map.of("grant_type", "refresh_token",
                "refresh_token", tokens.getOIDCTokens().getRefreshToken().getValue(), "client_id", game.clientId())),
                400, "invalid_grant", "refresh_token ya utilizado: se han revocado los tokens de esta autorizacion");
        assertThat(TokenEndpointIT.userinfo(again.getOIDCTokens().getAccessToken().getValue()).statusCode()).isEqualTo(401);
    }

    @Test
    void withoutScopeTheGuestGetsAnAccessAndARefreshTokenAndNoIdToken() {
        HttpResponse<String> answer = newGuest(game().clientId(), null, address());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(json(answer).propertyNames()).containsExactly("access_token", "token_type", "expires_in", "refresh_token");
        assertThat(json(answer).get("refresh_token").asString()).matches("[A-Za-z0-9_-]{43}");
        // a console (type dispositivo) may accept guests too
        assertThat(newGuest(app(ClientType.DEVICE, true).clientId(), "openid", address()).statusCode()).isEqualTo(200);
    }

    @Test
    void everyRefusalInRfc6749sShapeWithItsStatus() {
        String from = address();
        assertError(newGuest("no-existe", null, from), 401, "invalid_client", "client_id desconocido");
        assertError(new WebClient(ISSUER).postForm(GUESTS, Map.of("scope", "openid")), 400, "invalid_request",
                "Falta el parametro client_id");
        assertError(new WebClient(ISSUER).postRaw(GUESTS, "client_id=a&client_id=b"), 400, "invalid_request",
                "Parametro repetido: client_id");
        assertError(newGuest(app(ClientType.NATIVE, false).clientId(), null, from), 400, "unauthorized_client",
                "Esta aplicacion no admite invitados");
        assertError(newGuest(app(ClientType.WEB, false).clientId(), null, from), 400, "unauthorized_client",
                "Esta aplicacion no admite invitados");
        assertError(newGuest(game().clientId(), "openid juegos", from), 400, "invalid_scope",
                "Alcance desconocido: openid, email, profile u offline_access");
        var revoked = game();
        clients.revoke(revoked.clientId());
        assertError(newGuest(revoked.clientId(), null, from), 401, "invalid_client", "La aplicacion esta revocada");
        HttpResponse<String> get = new WebClient(ISSUER).get(GUESTS + "?client_id=" + game().clientId());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");
        assertThat(get.body()).isEqualTo("{\"error\":\"invalid_request\",\"error_description\":\"Metodo no permitido\"}");
        // none of them made a guest, nor spent the address's guests
        for (int i = 0; i < 10; i++) {
            assertThat(newGuest(game().clientId(), null, from).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void oneAddressMakesTenGuestsAnHourThenWaits() {
        var game = game();
        String from = address();
        for (int i = 0; i < 10; i++) {
            assertThat(newGuest(game.clientId(), null, from).statusCode()).as("guest " + (i + 1)).isEqualTo(200);
        }
        long before = jdbc.queryForObject("select count(*) from guests", Long.class);
        HttpResponse<String> refused = newGuest(game.clientId(), null, from);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).isEqualTo(
                "{\"error\":\"temporarily_unavailable\",\"error_description\":\"Demasiadas solicitudes, intentalo mas tarde\"}");
        long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).isBetween(1L, 3600L);
        assertThat(jdbc.queryForObject("select count(*) from guests", Long.class)).isEqualTo(before);
        // another address is another budget
        assertThat(newGuest(game.clientId(), null, address()).statusCode()).isEqualTo(200);
    }

    @Test
    void aGuestCannotMakeApiTokensNorRegisterApplicationsNorLogInOnAPage() throws Exception {
        String access = tokens(newGuest(game().clientId(), "openid", address())).getOIDCTokens().getAccessToken().getValue();
        long id = userOf(access);
        var web = new WebClient(ISSUER);
        ApiAssertions.assertApiError(web.postForm("/api/tokens/create.php", Map.of("name", "mío"), "Authorization",
                "Bearer " + access), 403, "Permiso denegado");
        ApiAssertions.assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "Mía", "type", "nativa",
                "redirect_uri", "http://127.0.0.1/cb"), "Authorization", "Bearer " + access), 403, "Permiso denegado");
        ApiAssertions.assertApiError(web.get("/api/tokens/list.php", "Authorization", "Bearer " + access), 403,
                "Permiso denegado");
        // no address to type: its subject is no login name either
        assertThat(WebClient.location(web.login("user:" + id, "anything-at-all-1"))).contains("error");
        assertThat(jdbc.queryForObject("select count(*) from api_tokens where user_id = ? and kind = 'personal'",
                Long.class, id)).isZero();
    }

    @Test
    void theGameGetsASingleUseAddressWhereThePlayerKeepsTheProgress() throws Exception {
        String access = tokens(newGuest(game().clientId(), null, address())).getOIDCTokens().getAccessToken().getValue();
        var web = new WebClient(ISSUER);

        HttpResponse<String> answer = web.postRaw(CONVERT, "", "Authorization", "Bearer " + access);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(answer.body()).matches("\\{\"ok\":true,\"url\":\"" + ISSUER.replace(".", "\\.")
                + "/registro\\?invitado=[A-Za-z0-9_-]{43}\",\"expires_in\":600}");
        String url = json(answer).get("url").asString();
        String page = url.substring(ISSUER.length());
        HttpResponse<String> opened = new WebClient(ISSUER).get(page);
        assertThat(opened.statusCode()).isEqualTo(200);
        assertThat(opened.body()).contains("id=\"guest-conversion\"").contains("id=\"signup-form\"");
        // once
        HttpResponse<String> again = new WebClient(ISSUER).get(page);
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.body()).contains("id=\"guest-link-unusable\"").doesNotContain("id=\"signup-form\"");
        // ten minutes
        String late = json(web.postRaw(CONVERT, "", "Authorization", "Bearer " + access)).get("url").asString();
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        assertThat(new WebClient(ISSUER).get(late.substring(ISSUER.length())).statusCode()).isEqualTo(400);
        // only the digest is kept
        String code = late.substring(late.indexOf('=') + 1);
        assertThat(jdbc.queryForObject("select count(*) from guest_conversions where code_digest = ?", Long.class,
                code)).isZero();
    }

    @Test
    void theConversionAddressIsAGuestsOnly() {
        var player = newLoggedInUser("Jugadora");
        String userToken = apiTokenOfUser(player);
        var web = new WebClient(ISSUER);
        ApiAssertions.assertApiError(web.postRaw(CONVERT, "", "Authorization", "Bearer " + userToken), 409,
                "La cuenta no es de invitado");
        HttpResponse<String> none = web.postRaw(CONVERT, "");
        ApiAssertions.assertApiError(none, 401, "Falta token Bearer");
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        ApiAssertions.assertApiError(web.postRaw(CONVERT, "", "Authorization", "Bearer " + "0".repeat(64)), 401,
                "Token inválido o revocado");
    }

    /** An access token of a user's account, from the code flow of a first-party web application. */
    String apiTokenOfUser(User player) {
        var site = newClient();
        String code = authorize(player.browser(), site, "openid");
        return json(exchange(site, code)).get("access_token").asString();
    }

    @Test
    void anAdminSeesGuestsAsGuestsAndCannotGiveThemARole() throws Exception {
        String access = tokens(newGuest(game().clientId(), null, address())).getOIDCTokens().getAccessToken().getValue();
        long id = userOf(access);
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        assertThat(administration.changeRole(new Caller(admin, true), id, Role.USER)).isFalse();
        assertThat(administration.update(new Caller(admin, true), id, Role.DEVELOPER_API, null, null, null, null))
                .isEqualTo(com.example.identity.account.AccountAdministration.AdminOutcome.GUEST_ACCOUNT);
        assertThat(accounts.findById(id).orElseThrow().getRol()).isEqualTo(Role.INVITADO);
        // the audit trail names it as a guest
        assertThat(jdbc.queryForObject("select subject from audit_events where event = 'GUEST_CREATED' and subject like ?",
                String.class, "usuario #" + id + " %")).isEqualTo("usuario #" + id + " (invitado) para la aplicación "
                + jdbc.queryForObject("select client_id from guests where user_id = ?", String.class, id));
    }
}
