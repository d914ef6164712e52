package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.MovableClock;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.SoftwarePasskey;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Login with other providers (decisions §19) against a REAL provider: a second instance of this identity
 * service ({@link OtherProvider}), registered twice with Spring Boot's standard properties: as "Google", an
 * OpenID Connect provider found by its {@code issuer-uri}, and as "Discord", an OAuth 2.0 provider without
 * OpenID Connect, with explicit endpoints, its user-info answer ({@code /api/userinfo.php}, nested) mapped by
 * {@code identity.federation.attributes.discord.*}. Every step goes over HTTP, each side with its own browser
 * cookies, as a person's browser goes between the two sites.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
class FederatedLoginIT {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final int PORT = OtherProvider.freePort();
    static final String BASE = "http://localhost:" + PORT;
    static final String PASSWORD = "provider-password-1";
    static OtherProvider provider;

    @DynamicPropertySource
    static void providers(DynamicPropertyRegistry registry) {
        provider = OtherProvider.start();
        var google = provider.application(BASE + "/login/oauth2/code/google");
        var discord = provider.application(BASE + "/login/oauth2/code/discord");
        String p = "spring.security.oauth2.client.";
        registry.add("server.port", () -> PORT);
        registry.add("identity.issuer", () -> BASE);
        registry.add(p + "registration.google.client-id", google::clientId);
        registry.add(p + "registration.google.client-secret", google::clientSecret);
        registry.add(p + "registration.google.client-name", () -> "Google");
        registry.add(p + "registration.google.scope", () -> "openid,email,profile");
        registry.add(p + "provider.google.issuer-uri", () -> provider.issuer);
        registry.add(p + "registration.discord.client-id", discord::clientId);
        registry.add(p + "registration.discord.client-secret", discord::clientSecret);
        registry.add(p + "registration.discord.client-name", () -> "Discord");
        registry.add(p + "registration.discord.client-authentication-method", () -> "client_secret_post");
        registry.add(p + "registration.discord.authorization-grant-type", () -> "authorization_code");
        registry.add(p + "registration.discord.redirect-uri", () -> "{baseUrl}/login/oauth2/code/{registrationId}");
        registry.add(p + "registration.discord.scope", () -> "email,profile");
        registry.add(p + "provider.discord.authorization-uri", () -> provider.issuer + "/oauth/authorize.php");
        registry.add(p + "provider.discord.token-uri", () -> provider.issuer + "/oauth/token.php");
        registry.add(p + "provider.discord.user-info-uri", () -> provider.issuer + "/api/userinfo.php");
        registry.add(p + "provider.discord.user-name-attribute", () -> "user.id");
        registry.add("identity.federation.attributes.discord.email", () -> "user.correo");
        registry.add("identity.federation.attributes.discord.email-verified", () -> "user.verified");
        registry.add("identity.federation.attributes.discord.name", () -> "user.primer_nombre");
    }

    @AfterAll
    static void stopProvider() {
        provider.close();
    }

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MovableClock clock;

    static String pathOf(String location) {
        URI uri = URI.create(location);
        return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    /** A person logged in at the provider, in a browser of its own. */
    record ProviderPerson(long id, String email, WebClient browser) {
    }

    ProviderPerson atProvider(String name, boolean verified) {
        String email = "fed-" + UUID.randomUUID() + "@example.com";
        long id = provider.person(name, email, PASSWORD, verified);
        var browser = new WebClient(provider.port);
        assertThat(browser.login(email, PASSWORD).statusCode()).isEqualTo(302);
        return new ProviderPerson(id, email, browser);
    }

    /**
     * From this service's {@code start} (a button's address) through the provider and back: the answer of this
     * service's redirect URI.
     */
    static HttpResponse<String> viaProvider(WebClient here, WebClient there, String start, String registrationId) {
        HttpResponse<String> started = here.get(start);
        assertThat(started.statusCode()).as(started.body()).isEqualTo(302);
        assertThat(pathOf(WebClient.location(started))).isEqualTo("/oauth2/authorization/" + registrationId);
        HttpResponse<String> toProvider = here.get("/oauth2/authorization/" + registrationId);
        assertThat(toProvider.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(toProvider)).startsWith(provider.issuer + "/oauth/authorize.php?");
        HttpResponse<String> back = there.get(pathOf(WebClient.location(toProvider)));
        assertThat(back.statusCode()).as(back.body()).isEqualTo(302);
        assertThat(WebClient.location(back)).startsWith(BASE + "/login/oauth2/code/" + registrationId + "?code=");
        return here.get(pathOf(WebClient.location(back)));
    }

    long linkedUser(String registrationId, String subject) {
        return jdbc.queryForObject("select user_id from linked_identities where provider = ? and subject = ?",
                Long.class, registrationId, subject);
    }

    @Test
    void theLoginPageShowsOneButtonPerProviderAndNoRedirectWithoutAnAuthorizationRequest() {
        String page = new WebClient(PORT).get("/login/").body();
        assertThat(page).contains("id=\"federated-discord\"").contains(">Entrar con Discord</a>")
                .contains("id=\"federated-google\"").contains(">Entrar con Google</a>")
                .contains("href=\"/login/federado/google\"");
        assertThat(new WebClient(PORT).get("/login/federado/nadie").statusCode()).isEqualTo(404);
    }

    @Test
    void aFirstLoginWithGoogleCreatesAVerifiedAccountAndTheNextOneLogsIntoIt() {
        ProviderPerson person = atProvider("Greta", true);
        var browser = new WebClient(PORT);

        HttpResponse<String> landed = viaProvider(browser, person.browser(), "/login/federado/google", "google");

        assertThat(landed.statusCode()).as(landed.body()).isEqualTo(302);
        assertThat(WebClient.location(landed)).isEqualTo("/");
        var account = accounts.findByEmail(person.email()).orElseThrow();
        assertThat(account.getRol()).isEqualTo(Role.USER);
        assertThat(account.getPrimerNombre()).isEqualTo("Greta");
        assertThat(account.isEmailVerified()).isTrue();
        assertThat(account.isPasswordSet()).isFalse();
        assertThat(linkedUser("google", "user:" + person.id())).isEqualTo(account.getId());
        HttpResponse<String> home = browser.get("/cuenta/");
        assertThat(home.statusCode()).isEqualTo(200);
        assertThat(home.body()).contains(person.email());
        // /cuenta/seguridad lists the link
        String security = browser.get("/cuenta/seguridad").body();
        assertThat(security).contains("Cuentas vinculadas").contains("data-link=\"google\"").contains("Desvincular")
                .contains("Vincular Discord");

        // the next time, in another browser: the same account, no second one
        var later = new WebClient(PORT);
        HttpResponse<String> again = viaProvider(later, person.browser(), "/login/federado/google", "google");
        assertThat(WebClient.location(again)).isEqualTo("/");
        assertThat(later.get("/cuenta/").body()).contains(person.email());
        assertThat(jdbc.queryForObject("select count(*) from users where correo = ?", Long.class, person.email())).isEqualTo(1);
    }

    @Test
    void anAddressTheProviderDidNotVerifyGivesAnUnverifiedAccount() {
        ProviderPerson person = atProvider("Ulises", false);
        var browser = new WebClient(PORT);
        assertThat(WebClient.location(viaProvider(browser, person.browser(), "/login/federado/google", "google")))
                .isEqualTo("/");
        assertThat(accounts.findByEmail(person.email()).orElseThrow().isEmailVerified()).isFalse();
    }

    @Test
    void anOAuth2ProviderWithoutOpenIdConnectIsReadThroughItsUserInfoMapping() {
        ProviderPerson person = atProvider("Dani", true);
        var browser = new WebClient(PORT);

        HttpResponse<String> landed = viaProvider(browser, person.browser(), "/login/federado/discord", "discord");

        assertThat(WebClient.location(landed)).isEqualTo("/");
        var account = accounts.findByEmail(person.email()).orElseThrow();
        assertThat(account.getPrimerNombre()).isEqualTo("Dani");
        // /api/userinfo.php asserts nothing about the address
        assertThat(account.isEmailVerified()).isFalse();
        assertThat(linkedUser("discord", Long.toString(person.id()))).isEqualTo(account.getId());
    }

    @Test
    void anAddressThatHasAnAccountIsLinkedOnlyAfterThePersonProvesThatAccount() {
        ProviderPerson person = atProvider("Lara", true);
        long mine = accounts.create("Lara", person.email(), "my-password-here-1", Role.USER).getId();
        var browser = new WebClient(PORT);

        HttpResponse<String> asked = viaProvider(browser, person.browser(), "/login/federado/google", "google");

        assertThat(WebClient.location(asked)).isEqualTo("/login/vincular");
        assertThat(jdbc.queryForObject("select count(*) from linked_identities where user_id = ?", Long.class, mine)).isZero();
        assertThat(browser.get("/cuenta/").statusCode()).as("nobody is logged in yet").isEqualTo(302);
        HttpResponse<String> page = browser.get("/login/vincular");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains(person.email()).contains("Google");
        HttpResponse<String> wrong = browser.postForm("/login/vincular", Map.of("password", "not-the-password",
                "_csrf", WebClient.csrfOf(page.body())));
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(wrong.body()).contains("La contraseña no es correcta.");
        assertThat(jdbc.queryForObject("select count(*) from linked_identities where user_id = ?", Long.class, mine)).isZero();

        HttpResponse<String> proved = browser.postForm("/login/vincular", Map.of("password", "my-password-here-1",
                "_csrf", WebClient.csrfOf(wrong.body())));
        assertThat(proved.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(proved)).isEqualTo("/");
        assertThat(linkedUser("google", "user:" + person.id())).isEqualTo(mine);
        assertThat(browser.get("/cuenta/").statusCode()).isEqualTo(200);
        // from now on Google logs into that account directly
        var later = new WebClient(PORT);
        assertThat(WebClient.location(viaProvider(later, person.browser(), "/login/federado/google", "google"))).isEqualTo("/");
        assertThat(later.get("/cuenta/").body()).contains(person.email());
    }

    /** §19: a passkey proves the account at /login/vincular too (the login page's passkey login, then its end). */
    @Test
    void anAddressThatHasAnAccountIsLinkedAfterAPasskeyOfThatAccount() {
        ProviderPerson person = atProvider("Paz", true);
        long mine = accounts.create("Paz", person.email(), "my-password-here-2", Role.USER).getId();
        var device = new SoftwarePasskey(BASE);
        var owner = new WebClient(PORT);
        assertThat(owner.login(person.email(), "my-password-here-2").statusCode()).isEqualTo(302);
        String ownerCsrf = owner.csrfFrom("/cuenta/seguridad");
        var creation = postJson(owner, "/webauthn/register/options", null, ownerCsrf);
        assertThat(postJson(owner, "/webauthn/register", device.register(creation.body(), "Móvil"), ownerCsrf).body())
                .contains("\"success\":true");

        var browser = new WebClient(PORT);
        assertThat(WebClient.location(viaProvider(browser, person.browser(), "/login/federado/google", "google")))
                .isEqualTo("/login/vincular");
        String page = browser.get("/login/vincular").body();
        assertThat(page).contains("id=\"passkey-login\"").contains("data-redirect=\"/login/vincular/terminar\"");
        String csrf = WebClient.csrfOf(page);
        var options = postJson(browser, "/webauthn/authenticate/options", null, csrf);
        var loggedIn = postJson(browser, "/login/webauthn?redirect=/login/vincular/terminar",
                device.authenticate(options.body()), csrf);
        assertThat(loggedIn.body()).isEqualTo("{\"authenticated\":true,\"redirectUrl\":\"/login/vincular/terminar\"}");
        HttpResponse<String> done = browser.get("/login/vincular/terminar");
        assertThat(WebClient.location(done)).isEqualTo("/");
        assertThat(linkedUser("google", "user:" + person.id())).isEqualTo(mine);
    }

    static HttpResponse<String> postJson(WebClient web, String path, String json, String csrf) {
        return web.send(java.net.http.HttpRequest.newBuilder(URI.create(web.base() + path))
                .header("Content-Type", "application/json").header("X-CSRF-TOKEN", csrf)
                .POST(json == null ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString(json)).build());
    }

    @Test
    void theAuthorizationRequestThatLedToTheLoginContinuesAndTheSubjectStaysThisServicesOwn() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var app = clients.register(owner, "Juego", "https://game.example/cb/" + UUID.randomUUID());
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), app.clientId(), true);
        String authorize = "/oauth/authorize.php?" + WebClient.encode(Map.of("response_type", "code", "client_id",
                app.clientId(), "redirect_uri", app.redirectUri(), "scope", "openid email", "state", "s-9"));
        ProviderPerson person = atProvider("Amaia", true);
        var browser = new WebClient(PORT);
        String toLogin = pathOf(WebClient.location(browser.get(authorize)));
        String redirect = UriUtils.decode(UriComponentsBuilder.fromUriString(toLogin).build().getQueryParams()
                .getFirst("redirect"), StandardCharsets.UTF_8);
        String button = browser.get(toLogin).body();
        assertThat(button).contains("href=\"/login/federado/google?redirect=");

        HttpResponse<String> landed = viaProvider(browser, person.browser(), "/login/federado/google?redirect="
                + java.net.URLEncoder.encode(redirect, StandardCharsets.UTF_8), "google");

        assertThat(WebClient.location(landed)).isEqualTo(redirect);
        HttpResponse<String> code = browser.get(redirect);
        assertThat(WebClient.location(code)).startsWith(app.redirectUri() + "?code=");
        String value = UriComponentsBuilder.fromUriString(WebClient.location(code)).build().getQueryParams().getFirst("code");
        HttpResponse<String> tokens = new WebClient(PORT).postForm("/oauth/token.php", OAuthForms.codeExchange(app, value));
        assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);
        JsonNode claims = JSON.readTree(new String(Base64.getUrlDecoder().decode(
                JSON.readTree(tokens.body()).get("id_token").asString().split("\\.")[1]), StandardCharsets.UTF_8));
        long id = accounts.findByEmail(person.email()).orElseThrow().getId();
        assertThat(claims.get("sub").asString()).isEqualTo("user:" + id);
        assertThat(claims.get("email_verified").asBoolean()).isTrue();
        assertThat(claims.get("auth_time").asLong()).isPositive();
    }

    @Test
    void anApplicationThatDemandsASecondFactorGetsTheSecondStepAfterAFederatedLoginAsAfterAPassword() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var app = clients.register(owner, "Tienda", "https://shop.example/cb/" + UUID.randomUUID());
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), app.clientId(), true);
        ProviderPerson person = atProvider("Marta", true);
        var browser = new WebClient(PORT);
        assertThat(WebClient.location(viaProvider(browser, person.browser(), "/login/federado/google", "google")))
                .isEqualTo("/");

        HttpResponse<String> demanded = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of("response_type",
                "code", "client_id", app.clientId(), "redirect_uri", app.redirectUri(), "scope", "openid",
                "acr_values", "mfa", "state", "s-2")));

        assertThat(demanded.statusCode()).isEqualTo(302);
        assertThat(pathOf(WebClient.location(demanded))).isEqualTo("/login/segundo-paso/alta");
    }

    @Test
    void theLastWayToLogInCannotBeUnlinkedAnotherOneCanBeLinkedAndThenItCan() {
        ProviderPerson person = atProvider("Íker", true);
        var browser = new WebClient(PORT);
        viaProvider(browser, person.browser(), "/login/federado/google", "google");
        long id = accounts.findByEmail(person.email()).orElseThrow().getId();
        long google = jdbc.queryForObject("select id from linked_identities where user_id = ? and provider = 'google'",
                Long.class, id);
        String security = browser.get("/cuenta/seguridad").body();

        HttpResponse<String> refused = browser.postForm("/cuenta/seguridad/vinculos/desvincular", Map.of("vinculo",
                Long.toString(google), "_csrf", WebClient.csrfOf(security)));
        assertThat(WebClient.location(refused)).isEqualTo("/cuenta/seguridad?vinculo=ultimo");
        assertThat(browser.get("/cuenta/seguridad?vinculo=ultimo").body()).contains("es tu única forma de entrar");

        // "Vincular Discord" from the logged-in session: the same provider person, through Discord's registration
        HttpResponse<String> linked = viaProvider(browser, person.browser(), "/login/federado/discord?vincular=1", "discord");
        assertThat(WebClient.location(linked)).isEqualTo("/cuenta/seguridad?vinculo=nuevo");
        assertThat(linkedUser("discord", Long.toString(person.id()))).isEqualTo(id);
        assertThat(browser.get("/cuenta/").body()).as("still logged in as the same account").contains(person.email());

        HttpResponse<String> removed = browser.postForm("/cuenta/seguridad/vinculos/desvincular", Map.of("vinculo",
                Long.toString(google), "_csrf", WebClient.csrfOf(browser.get("/cuenta/seguridad").body())));
        assertThat(WebClient.location(removed)).isEqualTo("/cuenta/seguridad?vinculo=eliminado");
        assertThat(jdbc.queryForList("select provider from linked_identities where user_id = ?", String.class, id))
                .containsExactly("discord");
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'IDENTITY_UNLINKED' and subject = ?",
                Long.class, "usuario #" + id + ": google")).isEqualTo(1);
    }

    /**
     * Issue 39: an account that a provider made has no password of its own, so /cuenta/eliminar asks for none (and
     * counts no failed login): a login with its provider within the last 10 minutes proves the person, as at
     * /login/vincular; "Entrar de nuevo con Google" gives a fresh one and comes back; the address is typed again.
     */
    @Test
    void anAccountMadeByAProviderLeavesWithAFreshLoginThereAndItsAddressTypedAgain() {
        ProviderPerson person = atProvider("Lea", true);
        var browser = new WebClient(PORT);
        assertThat(WebClient.location(viaProvider(browser, person.browser(), "/login/federado/google", "google")))
                .isEqualTo("/");
        long id = accounts.findByEmail(person.email()).orElseThrow().getId();
        clock.advance(Duration.ofMinutes(11));

        HttpResponse<String> page = browser.get("/cuenta/eliminar");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).doesNotContain("name=\"contrasena\"").contains("id=\"provider-needed\"")
                .contains("Tu cuenta no tiene contraseña propia")
                .contains("href=\"/login/federado/google?reautenticar=1\"").contains(">Entrar de nuevo con Google</a>");
        HttpResponse<String> stale = browser.postForm("/cuenta/eliminar", Map.of("confirmacion", person.email(),
                "_csrf", WebClient.csrfOf(page.body())));
        assertThat(stale.statusCode()).isEqualTo(400);
        assertThat(stale.body()).contains("id=\"recent-error\"").contains("vuelve a entrar con tu proveedor");
        assertThat(accounts.findById(id)).isPresent();
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'LOGIN_FAILED' and actor = ?",
                Long.class, person.email())).as("no password was checked").isZero();

        // another person's identity at the provider proves nothing about this account
        ProviderPerson stranger = atProvider("Otra", true);
        HttpResponse<String> other = viaProvider(browser, stranger.browser(), "/login/federado/google?reautenticar=1",
                "google");
        assertThat(WebClient.location(other)).isEqualTo("/cuenta/eliminar?reautenticacion=otra");
        HttpResponse<String> told = browser.get("/cuenta/eliminar?reautenticacion=otra");
        assertThat(told.body()).contains(person.email()).contains("no es la vinculada a tu cuenta");
        assertThat(accounts.findByEmail(stranger.email())).as("nothing made for the stranger").isEmpty();

        HttpResponse<String> again = viaProvider(browser, person.browser(), "/login/federado/google?reautenticar=1",
                "google");
        assertThat(WebClient.location(again)).isEqualTo("/cuenta/eliminar");
        HttpResponse<String> fresh = browser.get("/cuenta/eliminar");
        assertThat(fresh.body()).doesNotContain("id=\"provider-needed\"").doesNotContain("name=\"contrasena\"");
        HttpResponse<String> mistyped = browser.postForm("/cuenta/eliminar", Map.of("confirmacion", "otra@example.com",
                "_csrf", WebClient.csrfOf(fresh.body())));
        assertThat(mistyped.statusCode()).isEqualTo(400);
        assertThat(mistyped.body()).contains("Escribe la dirección de correo de tu cuenta tal como es");

        HttpResponse<String> deleted = browser.postForm("/cuenta/eliminar", Map.of("confirmacion", person.email(),
                "_csrf", WebClient.csrfOf(mistyped.body())));
        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(deleted.body()).contains("id=\"account-deleted\"");
        assertThat(accounts.findById(id)).isEmpty();
        assertThat(jdbc.queryForObject("select count(*) from linked_identities where user_id = ?", Long.class, id)).isZero();
    }
}
