package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.JsonNode;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.client.SenderConstraints;
import com.example.identity.oauth.token.AuthorizationCodeExchange;
import com.example.identity.support.NimbusLauncher;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.example.identity.support.WebClient;

/**
 * Pushed authorization requests (RFC 9126, decisions §28) over HTTP: {@code /oauth/par.php} answers 201 with a
 * one-time, client-bound {@code request_uri} for 60 s; {@code /oauth/authorize.php?client_id=...&request_uri=...}
 * takes it once and goes on exactly as with the parameters sent directly (the login page, the consent page,
 * {@code prompt=none}...); an application may require it ({@code par_obligatorio}); a {@code request_uri} of
 * anyone else keeps {@code request_uri_not_supported}.
 */
class PushedAuthorizationRequestIT extends OAuthTestBase {

    static final Pattern ANSWER = Pattern.compile(
            "\\{\"request_uri\":\"(urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43})\",\"expires_in\":60}");

    /** The authorization request's parameters a web site pushes. */
    static Map<String, String> request(ClientService.NewCredentials client, String scope, String state) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("response_type", "code");
        form.put("client_id", client.clientId());
        form.put("redirect_uri", client.redirectUri());
        form.put("scope", scope);
        form.put("state", state);
        form.put("nonce", "n-" + state);
        return form;
    }

    static HttpResponse<String> push(ClientService.NewCredentials client, Map<String, String> form) {
        return new WebClient(ISSUER).postForm("/oauth/par.php", form, "Authorization",
                TokenEndpointIT.basic(client.clientId(), client.clientSecret()));
    }

    /** The request_uri of a 201, after checking the answer byte for byte and its headers. */
    static String requestUriOf(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
        var matcher = ANSWER.matcher(answer.body());
        assertThat(matcher.matches()).as(answer.body()).isTrue();
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(answer.headers().allValues("Set-Cookie")).isEmpty();
        return matcher.group(1);
    }

    static String authorizeWith(ClientService.NewCredentials client, String requestUri) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("client_id", client.clientId());
        query.put("request_uri", requestUri);
        return "/oauth/authorize.php?" + WebClient.encode(query);
    }

    static MultiValueMap<String, String> query(String location) {
        return UriComponentsBuilder.fromUriString(location).build().getQueryParams();
    }

    @Test
    void aPushedRequestIsTakenOnceForItsClientAndGivesACode() {
        var client = newClient();
        User user = newLoggedInUser("Pilar");
        String requestUri = requestUriOf(push(client, request(client, "openid email", "st-1")));

        HttpResponse<String> answer = user.browser().get(authorizeWith(client, requestUri));
        assertThat(answer.statusCode()).isEqualTo(302);
        String location = WebClient.location(answer);
        assertThat(location).startsWith(client.redirectUri() + "?code=");
        assertThat(query(location).getFirst("state")).isEqualTo("st-1");
        HttpResponse<String> tokens = exchange(client, query(location).getFirst("code"));
        assertThat(tokens.statusCode()).isEqualTo(200);
        assertThat(json(tokens).has("id_token")).isTrue();
        assertThat(jdbc.queryForObject("select count(*) from pushed_authorization_requests where client_id = ?",
                Integer.class, client.clientId())).as("taken: its row is gone").isZero();

        // once
        HttpResponse<String> again = user.browser().get(authorizeWith(client, requestUri));
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(again.body()).contains("request_uri inválido, caducado o ya utilizado");
    }

    @Test
    void anotherClientCannotTakeItNorSpendIt() {
        var client = newClient();
        var other = newClient();
        User user = newLoggedInUser("Pilar");
        String requestUri = requestUriOf(push(client, request(client, "openid", "st-2")));

        HttpResponse<String> stolen = user.browser().get(authorizeWith(other, requestUri));
        assertThat(stolen.statusCode()).isEqualTo(400);
        assertThat(stolen.body()).contains("request_uri inválido, caducado o ya utilizado");
        HttpResponse<String> withoutClient = user.browser().get("/oauth/authorize.php?request_uri=" + requestUri);
        assertThat(withoutClient.statusCode()).isEqualTo(400);

        assertThat(WebClient.location(user.browser().get(authorizeWith(client, requestUri))))
                .startsWith(client.redirectUri() + "?code=");
    }

    @Test
    void anExpiredOneIsRefused() {
        var client = newClient();
        String requestUri = requestUriOf(push(client, request(client, "openid", "st-3")));
        jdbc.update("update pushed_authorization_requests set expires_at = created_at where client_id = ?",
                client.clientId());
        HttpResponse<String> late = newLoggedInUser("Pilar").browser().get(authorizeWith(client, requestUri));
        assertThat(late.statusCode()).isEqualTo(400);
        assertThat(late.body()).contains("request_uri inválido, caducado o ya utilizado");
    }

    @Test
    void theUserLogsInAndConsentsOnTheWayAndTheRequestGoesOnAsPushed() {
        var client = newThirdPartyClient();
        User user = newLoggedInUser("Pilar");
        var visitor = new WebClient(ISSUER);
        String requestUri = requestUriOf(push(client, request(client, "openid profile", "st-4")));

        // no session: the login page, whose way back is the pushed request itself
        HttpResponse<String> toLogin = visitor.get(authorizeWith(client, requestUri));
        assertThat(toLogin.statusCode()).isEqualTo(302);
        String loginUrl = WebClient.location(toLogin);
        assertThat(loginUrl).startsWith("/login/?redirect=");
        String back = query(loginUrl).getFirst("redirect");
        assertThat(org.springframework.web.util.UriUtils.decode(back, java.nio.charset.StandardCharsets.UTF_8))
                .startsWith("/oauth/authorize.php?response_type=code&client_id=" + client.clientId())
                .doesNotContain("request_uri");
        HttpResponse<String> loggedIn = visitor.login(user.email(), "correct-password-123",
                org.springframework.web.util.UriUtils.decode(back, java.nio.charset.StandardCharsets.UTF_8));
        // a third-party application: the consent page, then the code with the pushed state
        HttpResponse<String> answer = approvingConsent(visitor, visitor.get(WebClient.location(loggedIn)));
        String location = WebClient.location(answer);
        assertThat(location).startsWith(client.redirectUri() + "?code=");
        assertThat(query(location).getFirst("state")).isEqualTo("st-4");
    }

    /** A third-party application that requires PAR: the consent page's way back is the pushed request, let through. */
    @Test
    void anApplicationThatRequiresPushedRequestsGetsItsUserBackFromTheConsentPage() {
        var client = clients.register(accounts.findByEmail("dev@example.com").orElseThrow().getId(), "Terceros",
                "https://app.example/cb/" + UUID.randomUUID(), List.of(), ClientType.WEB, null,
                new SenderConstraints(true, false));
        User user = newLoggedInUser("Pilar");
        String requestUri = requestUriOf(push(client, request(client, "openid profile", "st-c")));
        HttpResponse<String> toConsent = user.browser().get(authorizeWith(client, requestUri));
        assertThat(WebClient.location(toConsent)).startsWith("/oauth/consent?request=");
        String location = WebClient.location(approvingConsent(user.browser(), toConsent));
        assertThat(location).startsWith(client.redirectUri() + "?code=");
        assertThat(query(location).getFirst("state")).isEqualTo("st-c");
    }

    @Test
    void everyCheckOfTheAuthorizationEndpointAppliesToThePushedParameters() {
        var client = newClient();
        // prompt=none without a session: login_required to the pushed redirect URI, with the pushed state
        Map<String, String> silent = request(client, "openid", "st-5");
        silent.put("prompt", "none");
        HttpResponse<String> answer = new WebClient(ISSUER).get(authorizeWith(client, requestUriOf(push(client, silent))));
        assertThat(WebClient.location(answer)).isEqualTo(client.redirectUri()
                + "?error=login_required&error_description=Hace%20falta%20iniciar%20sesion%20y%20prompt%3Dnone%20no"
                + "%20permite%20mostrar%20la%20pagina&state=st-5");
        // a malformed max_age
        Map<String, String> maxAge = request(client, "openid", "st-6");
        maxAge.put("max_age", "-1");
        String refused = WebClient.location(newLoggedInUser("Pilar").browser().get(
                authorizeWith(client, requestUriOf(push(client, maxAge)))));
        assertThat(refused).startsWith(client.redirectUri() + "?error=invalid_request&error_description=max_age");
    }

    @Test
    void aRequestUriOfAnyoneElseIsStillNotSupported() {
        var client = newClient();
        String location = WebClient.location(newLoggedInUser("Pilar").browser().get(authorizeUrl(client, "openid",
                Map.of("state", "st", "request_uri", "https://app.example/request/1"))));
        assertThat(location).isEqualTo(client.redirectUri() + "?error=request_uri_not_supported&error_description="
                + "El%20parametro%20request_uri%20no%20esta%20soportado&state=st");
    }

    @Test
    void anApplicationThatRequiresPushedRequestsRefusesTheOthers() {
        var client = newClient(new SenderConstraints(true, false));
        User user = newLoggedInUser("Pilar");
        String direct = WebClient.location(user.browser().get(authorizeUrl(client, "openid", Map.of("state", "st"))));
        assertThat(direct).startsWith(client.redirectUri() + "?error=invalid_request&error_description=").endsWith("&state=st");
        assertThat(ErrorDescriptionCharactersIT.decoded(query(direct), "error_description")).isEqualTo("Esta aplicacion "
                + "exige enviar antes la solicitud a /oauth/par.php y usar su request_uri (PAR, RFC 9126)");

        // pushed: a visitor logs in on the way, and comes back to the request taken from /oauth/par.php
        var visitor = new WebClient(ISSUER);
        String requestUri = requestUriOf(push(client, request(client, "openid", "st-7")));
        String loginUrl = WebClient.location(visitor.get(authorizeWith(client, requestUri)));
        String back = org.springframework.web.util.UriUtils.decode(query(loginUrl).getFirst("redirect"),
                java.nio.charset.StandardCharsets.UTF_8);
        HttpResponse<String> loggedIn = visitor.login(user.email(), "correct-password-123", back);
        String location = WebClient.location(visitor.get(WebClient.location(loggedIn)));
        assertThat(location).startsWith(client.redirectUri() + "?code=");
        // that way back is done once the code went out; and another browser cannot use it
        assertThat(WebClient.location(visitor.get(back))).startsWith(client.redirectUri() + "?error=invalid_request");
        assertThat(WebClient.location(newLoggedInUser("Otro").browser().get(back)))
                .startsWith(client.redirectUri() + "?error=invalid_request");
    }

    @Test
    void aLauncherPushesWithItsClientIdAloneAndPkce() {
        var launcher = clients.register(accounts.findByEmail("dev@example.com").orElseThrow().getId(), "Lanzador",
                "http://127.0.0.1/cb", List.of(), ClientType.NATIVE);
        clients.setFirstParty(new Caller(accounts.findByEmail("admin@example.com").orElseThrow().getId(), true),
                launcher.clientId(), true);
        String verifier = "v" + UUID.randomUUID() + UUID.randomUUID();
        Map<String, String> form = request(launcher, "openid", "st-8");
        form.put("redirect_uri", "http://127.0.0.1:61234/cb");
        HttpResponse<String> withoutPkce = new WebClient(ISSUER).postForm("/oauth/par.php", form);
        assertThat(withoutPkce.body()).isEqualTo("{\"error\":\"invalid_request\",\"error_description\":\"Falta "
                + "code_challenge: una aplicacion nativa usa PKCE con S256\"}");
        form.put("code_challenge", AuthorizationCodeExchange.s256(verifier));
        form.put("code_challenge_method", "S256");
        String requestUri = requestUriOf(new WebClient(ISSUER).postForm("/oauth/par.php", form));

        String location = WebClient.location(newLoggedInUser("Pilar").browser().get(authorizeWith(launcher, requestUri)));
        assertThat(location).startsWith("http://127.0.0.1:61234/cb?code=");
        HttpResponse<String> tokens = new WebClient(ISSUER).postForm("/oauth/token.php", Map.of(
                "grant_type", "authorization_code", "code", query(location).getFirst("code"),
                "redirect_uri", "http://127.0.0.1:61234/cb", "client_id", launcher.clientId(), "code_verifier", verifier));
        assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);
    }

    /**
     * The Java launcher of docs/dpop-and-par.md ({@link NimbusLauncher}, the Nimbus SDK's PAR request and DPoP proof
     * factory): pushes, logs its player in, gets DPoP tokens, calls both UserInfo endpoints and refreshes with its key.
     */
    @Test
    void aJavaLauncherWithTheNimbusSdkPushesItsRequestAndHoldsDPoPTokens() throws Exception {
        var registered = clients.register(accounts.findByEmail("dev@example.com").orElseThrow().getId(), "Lanzador Java",
                "http://127.0.0.1/callback", List.of(), ClientType.NATIVE, null, new SenderConstraints(true, true));
        clients.setFirstParty(new Caller(accounts.findByEmail("admin@example.com").orElseThrow().getId(), true),
                registered.clientId(), true);
        User player = newLoggedInUser("Pilar");
        var launcher = new NimbusLauncher(ISSUER, registered.clientId(), "http://127.0.0.1:50123/callback");
        var verifier = new CodeVerifier();
        var state = new State();

        java.net.URI browser = launcher.push(verifier, state, new Nonce());
        assertThat(query(browser.toString()).keySet()).containsExactlyInAnyOrder("client_id", "request_uri");
        String location = WebClient.location(player.browser().get(browser.getRawPath() + "?" + browser.getRawQuery()));
        assertThat(location).startsWith("http://127.0.0.1:50123/callback?code=");
        assertThat(query(location).getFirst("state")).isEqualTo(state.getValue());

        Tokens tokens = launcher.exchange(query(location).getFirst("code"), verifier);
        assertThat(tokens.getAccessToken()).isInstanceOf(DPoPAccessToken.class);
        var token = (DPoPAccessToken) tokens.getAccessToken();
        assertThat(jdbc.queryForObject("select dpop_jkt from api_tokens where client_id = ?", String.class,
                registered.clientId())).isEqualTo(launcher.thumbprint());
        HTTPResponse api = launcher.get("/api/userinfo.php", token);
        assertThat(api.getStatusCode()).as(api.getBody()).isEqualTo(200);
        assertThat(api.getBody()).contains("\"id\":" + player.id());
        HTTPResponse oidc = launcher.get("/oauth/userinfo.php", token);
        assertThat(oidc.getStatusCode()).as(oidc.getBody()).isEqualTo(200);
        assertThat(oidc.getBody()).contains("\"sub\":\"user:" + player.id() + "\"");

        Tokens refreshed = launcher.refresh(tokens.getRefreshToken());
        assertThat(refreshed.getAccessToken()).isInstanceOf(DPoPAccessToken.class);
        assertThat(launcher.get("/api/userinfo.php", (DPoPAccessToken) refreshed.getAccessToken()).getStatusCode())
                .isEqualTo(200);
    }

    @Test
    void aPostToTheAuthorizationEndpointIsTurnedIntoAGetFirst() {
        var client = newClient();
        String requestUri = requestUriOf(push(client, request(client, "openid", "st-9")));
        HttpResponse<String> posted = new WebClient(ISSUER).postForm("/oauth/authorize.php",
                Map.of("client_id", client.clientId(), "request_uri", requestUri));
        assertThat(posted.statusCode()).isEqualTo(303);
        assertThat(WebClient.location(posted)).isEqualTo(authorizeWith(client, requestUri));
        assertThat(jdbc.queryForObject("select count(*) from pushed_authorization_requests where client_id = ?",
                Integer.class, client.clientId())).as("not taken by the POST").isOne();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no response_type         | response_type |                              | 400 | {"error":"invalid_request","error_description":"Falta el parametro response_type"}
            another response_type    | response_type | token                        | 400 | {"error":"unsupported_response_type","error_description":"response_type debe ser code"}
            another redirect_uri     | redirect_uri  | https://evil.example/cb      | 400 | {"error":"invalid_request","error_description":"redirect_uri no coincide con el registrado"}
            an unknown scope         | scope         | openid admin                 | 400 | {"error":"invalid_scope","error_description":"Alcance no admitido: openid, email, profile u offline_access"}
            a request_uri inside     | request_uri   | urn:x                        | 400 | {"error":"invalid_request","error_description":"request_uri no se admite en una solicitud enviada (RFC 9126)"}
            a request object         | request       | eyJhbGciOiJub25lIn0.e30.     | 400 | {"error":"invalid_request","error_description":"El parametro request no esta soportado"}
            plain PKCE               | code_challenge_method | plain                | 400 | {"error":"invalid_request","error_description":"code_challenge_method debe ser S256"}
            another client's id      | client_id     | someone-else                 | 401 | {"error":"invalid_client","error_description":"Autenticacion del cliente fallida"}
            """)
    void refusalsAreInTheRfcsShape(String what, String name, String value, int status, String body) {
        var client = newClient();
        Map<String, String> form = request(client, "openid", "st");
        if (name.equals("code_challenge_method")) {
            form.put("code_challenge", AuthorizationCodeExchange.s256("v" + UUID.randomUUID() + UUID.randomUUID()));
        }
        if (value == null) {
            form.remove(name);
        }
        else {
            form.put(name, value);
        }
        HttpResponse<String> refused = push(client, form);
        assertThat(refused.statusCode()).as(what).isEqualTo(status);
        assertThat(refused.body()).as(what).isEqualTo(body);
        assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void clientAuthenticationMethodAndRepeatsAreChecked() {
        var client = newClient();
        Map<String, String> form = request(client, "openid", "st");
        HttpResponse<String> anonymous = new WebClient(ISSUER).postForm("/oauth/par.php", form);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(json(anonymous).get("error").asString()).isEqualTo("invalid_client");
        HttpResponse<String> wrong = new WebClient(ISSUER).postForm("/oauth/par.php", form, "Authorization",
                TokenEndpointIT.basic(client.clientId(), "wrong"));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"oauth\"");
        // client_secret_post works, and the secret is not stored with the request
        Map<String, String> posted = new LinkedHashMap<>(form);
        posted.put("client_secret", client.clientSecret());
        requestUriOf(new WebClient(ISSUER).postForm("/oauth/par.php", posted));
        assertThat(jdbc.queryForList("select parameters from pushed_authorization_requests where client_id = ?",
                String.class, client.clientId())).singleElement().asString().doesNotContain("client_secret")
                .contains("state=st");

        HttpResponse<String> repeated = new WebClient(ISSUER).postRaw("/oauth/par.php",
                WebClient.encode(form) + "&scope=email", "Authorization",
                TokenEndpointIT.basic(client.clientId(), client.clientSecret()));
        assertThat(repeated.body()).isEqualTo("{\"error\":\"invalid_request\",\"error_description\":\"Parametro repetido: "
                + "scope\"}");
        HttpResponse<String> get = new WebClient(ISSUER).get("/oauth/par.php");
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");

        // a device application makes no authorization requests
        var console = clients.register(accounts.findByEmail("dev@example.com").orElseThrow().getId(), "Consola", null,
                List.of(), ClientType.DEVICE);
        HttpResponse<String> device = new WebClient(ISSUER).postForm("/oauth/par.php", Map.of("client_id",
                console.clientId(), "response_type", "code"));
        assertThat(device.body()).isEqualTo("{\"error\":\"unauthorized_client\",\"error_description\":\"Solo las "
                + "aplicaciones de tipo web o nativa envian solicitudes de autorizacion\"}");
    }

    @Test
    void discoveryAnnouncesTheEndpointAndDPoP() {
        JsonNode discovery = json(new WebClient(ISSUER).get("/.well-known/openid-configuration"));
        assertThat(discovery.get("pushed_authorization_request_endpoint").asString()).isEqualTo(ISSUER + "/oauth/par.php");
        assertThat(discovery.get("require_pushed_authorization_requests").asBoolean()).isFalse();
        assertThat(discovery.get("dpop_signing_alg_values_supported").valueStream().map(JsonNode::asString).toList())
                .containsExactly("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512");
        assertThat(discovery.get("request_uri_parameter_supported").asBoolean()).isFalse();
    }
}
