package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.Tokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/**
 * Native applications (decisions §16, RFC 8252) over real HTTP: a public client with no secret, PKCE S256
 * required, a loopback redirect URI on any port (§7.3) or a private-use scheme (§7.1), refresh tokens
 * always, rotated with reuse detection. The launcher is the Nimbus OAuth 2.0 SDK's own public-client
 * requests.
 */
class NativeClientIT extends OAuthTestBase {

    @Autowired
    ApiTokenService tokens;

    User player;

    @BeforeEach
    void setUp() {
        player = newLoggedInUser("Jugadora");
    }

    /** A native application registered as a developer registers one, made first-party (this is not about consent). */
    ClientService.NewCredentials nativeApp(String redirectUri) {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var app = clients.register(owner, "Lanzador", redirectUri, List.of(), ClientType.NATIVE);
        clients.setFirstParty(new Caller(owner, true), app.clientId(), true);
        return app;
    }

    /** A native application registered by a developer and left third-party, as they all are: with consent. */
    ClientService.NewCredentials thirdPartyNativeApp(String redirectUri) {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        return clients.register(owner, "Lanzador de terceros", redirectUri, List.of(), ClientType.NATIVE);
    }

    /** The launcher opens the system browser (the player's session) at the request; the answer's Location. */
    URI authorizationRedirect(AuthorizationRequest request) {
        HttpResponse<String> response = player.browser().get(request.toURI().getRawPath() + "?" + request.toURI().getRawQuery());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(302);
        return URI.create(WebClient.location(response));
    }

    static AuthorizationRequest request(ClientService.NewCredentials app, URI redirectUri, CodeVerifier verifier) {
        var builder = new AuthorizationRequest.Builder(new ResponseType("code"), new ClientID(app.clientId()))
                .endpointURI(URI.create(ISSUER + "/oauth/authorize.php"))
                .redirectionURI(redirectUri)
                .scope(new Scope("openid", "profile"))
                .state(new State("st"));
        if (verifier != null) {
            builder.codeChallenge(verifier, CodeChallengeMethod.S256);
        }
        return builder.build();
    }

    static Tokens tokens(TokenRequest request) throws Exception {
        TokenResponse response = TokenResponse.parse(request.toHTTPRequest().send());
        assertThat(response.indicatesSuccess()).as(() -> response.toErrorResponse().getErrorObject().toString()).isTrue();
        return response.toSuccessResponse().getTokens();
    }

    @Test
    void aLauncherLogsInOnALoopbackPortOfItsChoosingWithPkceAndNoSecretThenRefreshes() throws Exception {
        var app = nativeApp("http://127.0.0.1/callback");
        assertThat(app.clientSecret()).isNull();
        int port = ThreadLocalRandom.current().nextInt(20_000, 60_000);
        URI redirect = URI.create("http://127.0.0.1:" + port + "/callback");
        CodeVerifier verifier = new CodeVerifier();

        URI back = authorizationRedirect(request(app, redirect, verifier));

        assertThat(back.toString()).startsWith(redirect + "?code=");
        var code = AuthorizationResponse.parse(back).toSuccessResponse().getAuthorizationCode();
        Tokens first = tokens(new TokenRequest(URI.create(ISSUER + "/oauth/token.php"), new ClientID(app.clientId()),
                new AuthorizationCodeGrant(code, redirect, verifier)));
        assertThat(first.getRefreshToken()).as("native applications always get a refresh token").isNotNull();
        HttpResponse<String> userinfo = TokenEndpointIT.userinfo(first.getAccessToken().getValue());
        assertThat(userinfo.statusCode()).isEqualTo(200);
        assertThat(json(userinfo).get("user").get("id").asLong()).isEqualTo(player.id());

        // the refresh chain, public client: client_id alone
        Tokens second = tokens(new TokenRequest(URI.create(ISSUER + "/oauth/token.php"), new ClientID(app.clientId()),
                new RefreshTokenGrant(first.getRefreshToken())));
        assertThat(second.getRefreshToken()).isNotEqualTo(first.getRefreshToken());
        // the first refresh token, replayed: the family ends
        HttpResponse<String> replay = RefreshTokenIT.refreshPublic(app.clientId(), first.getRefreshToken().getValue());
        assertThat(replay.statusCode()).isEqualTo(400);
        assertThat(json(replay).get("error").asString()).isEqualTo("invalid_grant");
        assertThat(TokenEndpointIT.userinfo(second.getAccessToken().getValue()).statusCode()).isEqualTo(401);
    }

    @Test
    void aLauncherRevokesItsRefreshTokenWithItsClientIdAloneButMayNotIntrospect() throws Exception {
        var app = nativeApp("http://127.0.0.1/callback");
        URI redirect = URI.create("http://127.0.0.1:53000/callback");
        CodeVerifier verifier = new CodeVerifier();
        var code = AuthorizationResponse.parse(authorizationRedirect(request(app, redirect, verifier)))
                .toSuccessResponse().getAuthorizationCode();
        Tokens issued = tokens(new TokenRequest(URI.create(ISSUER + "/oauth/token.php"), new ClientID(app.clientId()),
                new AuthorizationCodeGrant(code, redirect, verifier)));

        HttpResponse<String> introspect = new WebClient(ISSUER).postForm("/oauth/introspect.php", Map.of(
                "token", issued.getAccessToken().getValue(), "client_id", app.clientId()));
        assertThat(introspect.statusCode()).isEqualTo(401);
        assertThat(json(introspect).get("error").asString()).isEqualTo("invalid_client");

        // logging out of the launcher: it revokes its refresh token, and with it the family
        HttpResponse<String> revoked = new WebClient(ISSUER).postForm("/oauth/revoke.php", Map.of(
                "token", issued.getRefreshToken().getValue(), "client_id", app.clientId()));
        assertThat(revoked.statusCode()).isEqualTo(200);
        assertThat(TokenEndpointIT.userinfo(issued.getAccessToken().getValue()).statusCode()).isEqualTo(401);
        assertThat(RefreshTokenIT.refreshPublic(app.clientId(), issued.getRefreshToken().getValue()).statusCode())
                .isEqualTo(400);
    }

    @Test
    void aPrivateUseSchemeRedirectWorks() throws Exception {
        var app = nativeApp("com.example.juego:/callback");
        URI redirect = URI.create("com.example.juego:/callback");
        CodeVerifier verifier = new CodeVerifier();

        URI back = authorizationRedirect(request(app, redirect, verifier));

        assertThat(back.toString()).startsWith("com.example.juego:/callback?code=");
        var code = AuthorizationResponse.parse(back).toSuccessResponse().getAuthorizationCode();
        assertThat(tokens(new TokenRequest(URI.create(ISSUER + "/oauth/token.php"), new ClientID(app.clientId()),
                new AuthorizationCodeGrant(code, redirect, verifier))).getAccessToken()).isNotNull();
    }

    @Test
    void withoutPkceOrWithPlainTheAuthorizationEndpointRefuses() {
        var app = nativeApp("http://127.0.0.1/callback");
        URI redirect = URI.create("http://127.0.0.1:51000/callback");

        URI missing = authorizationRedirect(request(app, redirect, null));
        assertThat(missing.toString()).isEqualTo(redirect + "?error=invalid_request&state=st");

        HttpResponse<String> plain = player.browser().get(authorizeUrl(app, "openid", Map.of("state", "p",
                "code_challenge", new CodeVerifier().getValue(), "code_challenge_method", "plain"))
                .replace(java.net.URLEncoder.encode(app.redirectUri(), java.nio.charset.StandardCharsets.UTF_8),
                        java.net.URLEncoder.encode(redirect.toString(), java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(WebClient.location(plain)).isEqualTo(redirect + "?error=invalid_request&state=p");
    }

    @Test
    void aWrongVerifierASecretOrAnotherPathIsRefused() throws Exception {
        var app = nativeApp("http://127.0.0.1/callback");
        URI redirect = URI.create("http://127.0.0.1:52000/callback");
        var code = AuthorizationResponse.parse(authorizationRedirect(request(app, redirect, new CodeVerifier())))
                .toSuccessResponse().getAuthorizationCode();

        HttpResponse<String> wrongVerifier = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of(
                "grant_type", "authorization_code", "code", code.getValue(), "redirect_uri", redirect.toString(),
                "client_id", app.clientId(), "code_verifier", new CodeVerifier().getValue()));
        TokenEndpointIT.assertError(wrongVerifier, 400, "code_verifier inválido");

        HttpResponse<String> withSecret = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of(
                "grant_type", "authorization_code", "code", code.getValue(), "redirect_uri", redirect.toString(),
                "client_id", app.clientId(), "client_secret", "a-secret-it-does-not-have"));
        TokenEndpointIT.assertError(withSecret, 401, "client_secret incorrecto");

        // another path on loopback is not the registered redirect URI: the error page, no redirect
        HttpResponse<String> otherPath = player.browser().get(request(app, URI.create("http://127.0.0.1:52000/otra"),
                new CodeVerifier()).toURI().toString().substring(ISSUER.length()));
        AuthorizeEndpointIT.assertErrorPage(otherPath, "redirect_uri no coincide con el registrado");
        // a confidential application without its secret keeps the legacy answer
        var web = newClient();
        HttpResponse<String> noSecret = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of(
                "grant_type", "authorization_code", "code", "x", "redirect_uri", web.redirectUri(),
                "client_id", web.clientId()));
        TokenEndpointIT.assertError(noSecret, 400, "Faltan parámetros obligatorios");
    }

    @Test
    void registrationRulesForNativeApplications() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        for (String refused : new String[] { "http://localhost/callback", "https://juego.example/cb", "juego:/cb",
                "http://127.0.0.1/cb#f", "com.example.juego:callback" }) {
            assertThatThrownBy(() -> clients.register(owner, "L", refused, List.of(), ClientType.NATIVE)).as(refused)
                    .isInstanceOf(ClientService.InvalidRegistrationException.class);
        }
        assertThat(clients.register(owner, "L", "http://[::1]/cb", List.of(), ClientType.NATIVE).clientSecret()).isNull();
        // a native application has no secret to rotate
        var app = nativeApp("http://127.0.0.1/callback");
        assertThat(clients.rotateSecret(app.clientId())).isEmpty();
    }

    @Test
    void aThirdPartyLauncherGoesThroughTheConsentPageEveryTime() throws Exception {
        var app = thirdPartyNativeApp("com.example.juego:/vuelta");
        URI redirect = URI.create("com.example.juego:/vuelta");
        CodeVerifier verifier = new CodeVerifier();
        AuthorizationRequest request = request(app, redirect, verifier);
        String path = request.toURI().getRawPath() + "?" + request.toURI().getRawQuery();

        // the first login: the consent page, naming the application and where it goes back to
        HttpResponse<String> asked = player.browser().get(path);
        assertThat(asked.statusCode()).isEqualTo(302);
        String consentPage = WebClient.location(asked).substring(WebClient.location(asked).indexOf("/oauth/consent?"));
        HttpResponse<String> page = player.browser().get(consentPage);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<span id=\"consent-client\">Lanzador de terceros</span> quiere acceder a tu cuenta")
                .contains("<code id=\"consent-host\">com.example.juego:</code>");
        HttpResponse<String> approved = approvingConsent(player.browser(), asked);
        URI back = URI.create(WebClient.location(approved));
        assertThat(back.toString()).startsWith("com.example.juego:/vuelta?code=");
        var code = AuthorizationResponse.parse(back).toSuccessResponse().getAuthorizationCode();
        Tokens issued = tokens(new TokenRequest(URI.create(ISSUER + "/oauth/token.php"), new ClientID(app.clientId()),
                new AuthorizationCodeGrant(code, redirect, verifier)));
        assertThat(issued.getRefreshToken()).isNotNull();
        assertThat(TokenEndpointIT.userinfo(issued.getAccessToken().getValue()).statusCode()).isEqualTo(200);
        assertThat(jdbc.queryForObject("select count(*) from oauth_consents where user_id = ? and client_id = ?",
                Integer.class, player.id(), app.clientId())).isEqualTo(1);

        // the same request again, consent given: asked again (RFC 8252 §8.6: another program could use this
        // client id and claim the redirect), and with prompt=none the answer is consent_required
        HttpResponse<String> again = player.browser().get(request(app, redirect, new CodeVerifier()).toURI().toString()
                .substring(ISSUER.length()));
        assertThat(WebClient.location(again)).contains("/oauth/consent?request=");
        HttpResponse<String> silent = player.browser().get(authorizeUrl(app, "openid profile", Map.of("state", "n",
                "prompt", "none", "code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                "code_challenge_method", "S256")));
        assertThat(WebClient.location(silent)).startsWith("com.example.juego:/vuelta?error=consent_required&");

        // a first-party launcher (an admin's choice) is not asked
        var firstParty = nativeApp("com.example.juego:/vuelta");
        AuthorizationRequest trusted = request(firstParty, redirect, new CodeVerifier());
        assertThat(authorizationRedirect(trusted).toString()).startsWith("com.example.juego:/vuelta?code=");
    }

    @Test
    void theManagementRouteRefusesWhatANativeApplicationMayNotRegister() {
        long developer = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        String auth = "Bearer " + tokens.createPersonal(developer, "cli " + System.nanoTime(), TokenScope.GESTION).value();
        var web = new WebClient(ISSUER);
        String loopbackOrScheme = "redirect_uri inválido: una aplicación nativa usa http://127.0.0.1 o http://[::1] "
                + "(RFC 8252 §7.3), o un esquema propio como com.example.juego:/callback";
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("http://localhost:" + PORT + "/cb", loopbackOrScheme);
        refused.put("http://localhost/cb", loopbackOrScheme);
        refused.put("juego:/cb", loopbackOrScheme);
        refused.put("https://juego.example/cb", loopbackOrScheme);
        refused.put("com.example.juego:callback", "redirect_uri inválido: tras un esquema propio va una sola barra y "
                + "la ruta, como com.example.juego:/callback (RFC 8252 §7.1)");
        refused.forEach((uri, error) -> ApiAssertions.assertApiError(web.postForm("/api/clients/create.php", Map.of(
                "name", "Lanzador", "type", "nativa", "redirect_uri", uri), "Authorization", auth), 400, error));
        for (String accepted : new String[] { "http://127.0.0.1/cb", "http://[::1]/cb", "com.example.juego:/cb" }) {
            assertThat(web.postForm("/api/clients/create.php", Map.of("name", "Lanzador", "type", "nativa",
                    "redirect_uri", accepted), "Authorization", auth).statusCode()).as(accepted).isEqualTo(200);
        }
    }

    @Test
    void theAuthorizationEndpointTakesAnyPortOfTheRegisteredLoopbackAddressButNeverLocalhost() throws Exception {
        var v4 = nativeApp("http://127.0.0.1/cb");
        for (int port : new int[] { 1024, 49152, 65535 }) {
            URI redirect = URI.create("http://127.0.0.1:" + port + "/cb");
            assertThat(authorizationRedirect(request(v4, redirect, new CodeVerifier())).toString()).as(redirect.toString())
                    .startsWith(redirect + "?code=");
        }
        var v6 = nativeApp("http://[::1]/cb");
        URI onV6 = URI.create("http://[::1]:" + ThreadLocalRandom.current().nextInt(20_000, 60_000) + "/cb");
        CodeVerifier verifier = new CodeVerifier();
        URI back = authorizationRedirect(request(v6, onV6, verifier));
        assertThat(back.toString()).startsWith(onV6 + "?code=");
        // the code is exchanged with that very redirect URI, port included
        assertThat(tokens(new TokenRequest(URI.create(ISSUER + "/oauth/token.php"), new ClientID(v6.clientId()),
                new AuthorizationCodeGrant(AuthorizationResponse.parse(back).toSuccessResponse().getAuthorizationCode(),
                        onV6, verifier))).getAccessToken()).isNotNull();

        // localhost by name, or the other loopback address: not registered, the error page and no redirect
        for (String refused : new String[] { "http://localhost:" + PORT + "/cb", "http://localhost/cb",
                "http://[::1]:50000/cb" }) {
            HttpResponse<String> page = player.browser().get(request(v4, URI.create(refused), new CodeVerifier()).toURI()
                    .toString().substring(ISSUER.length()));
            AuthorizeEndpointIT.assertErrorPage(page, "redirect_uri no coincide con el registrado");
        }
        HttpResponse<String> page = player.browser().get(request(v6, URI.create("http://127.0.0.1:50000/cb"),
                new CodeVerifier()).toURI().toString().substring(ISSUER.length()));
        AuthorizeEndpointIT.assertErrorPage(page, "redirect_uri no coincide con el registrado");
    }

    @Test
    void theManagementRouteCreatesANativeApplicationWithoutSecret() {
        long developer = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        String auth = "Bearer " + tokens.createPersonal(developer, "cli " + System.nanoTime(), TokenScope.GESTION).value();
        var web = new WebClient(ISSUER);

        HttpResponse<String> created = web.postForm("/api/clients/create.php", Map.of("name", "Lanzador",
                "redirect_uri", "http://127.0.0.1/callback", "type", "nativa"), "Authorization", auth);

        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        JsonNode client = json(created).get("client");
        assertThat(client.get("client_secret").isNull()).isTrue();
        assertThat(client.get("type").asString()).isEqualTo("nativa");
        ApiAssertions.assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "X",
                "redirect_uri", "http://127.0.0.1/callback", "type", "consola"), "Authorization", auth), 400,
                "type inválido: web, nativa, dispositivo o servidor");
    }
}
