package com.example.identity.federation;

import static com.example.identity.federation.ProviderLogin.PASSWORD;
import static com.example.identity.federation.ProviderLogin.givingBirthDate;
import static com.example.identity.federation.ProviderLogin.pathOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

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
import com.example.identity.federation.ProviderLogin.ProviderPerson;
import com.example.identity.support.MailFiles;
import com.example.identity.support.MovableClock;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;
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
    static final ProviderLogin FEDERATION = new ProviderLogin();
    static final int PORT = FEDERATION.port;
    static final String BASE = FEDERATION.base;
    static OtherProvider provider;

    @DynamicPropertySource
    static void providers(DynamicPropertyRegistry registry) {
        provider = FEDERATION.start(registry, "google");
        var discord = provider.application(BASE + "/login/oauth2/code/discord");
        String p = "spring.security.oauth2.client.";
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

    @Autowired
    LinkedIdentities links;

    @Autowired
    SanctionService sanctions;

    long linkedUser(String registrationId, String subject) {
        return jdbc.queryForObject("select user_id from linked_identities where provider = ? and subject = ?",
                Long.class, registrationId, subject);
    }

    @Test
    void aFirstLoginWithoutABirthDateAsksItOnceBeforeTheAccountExistsAndAChildsWaitsForTheParent() throws Exception {
        ProviderPerson person = FEDERATION.atProvider("Nil", true);
        var browser = new WebClient(PORT);
        HttpResponse<String> asked = FEDERATION.beforeBirthDate(browser, person.browser(), "/login/federado/google", "google");
        assertThat(asked.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(asked)).isEqualTo("/login/fecha-nacimiento");
        assertThat(accounts.findByEmail(person.email())).as("no account before the date").isEmpty();
        assertThat(browser.get("/cuenta/").statusCode()).as("nobody logged in meanwhile").isEqualTo(302);
        HttpResponse<String> page = browser.get("/login/fecha-nacimiento");
        assertThat(page.body()).contains("<strong>Google</strong> (<span>" + person.email() + "</span>)")
                .contains("name=\"fecha_nacimiento\"").doesNotContain("name=\"correo_tutor\"");

        HttpResponse<String> future = givingBirthDate(browser, "2999-01-01", Map.of());
        assertThat(future.statusCode()).isEqualTo(400);
        assertThat(future.body()).contains("id=\"fecha_nacimiento-error\">La fecha de nacimiento no puede ser posterior a hoy</p>");
        String twelve = java.time.LocalDate.now(java.time.ZoneId.of("Europe/Madrid")).minusYears(12).minusMonths(3).toString();
        HttpResponse<String> tutorAsked = givingBirthDate(browser, twelve, Map.of());
        assertThat(tutorAsked.statusCode()).isEqualTo(400);
        assertThat(tutorAsked.body()).contains("id=\"correo_tutor-error\">Como tienes menos de 14 años");
        String tutor = "tutor-" + UUID.randomUUID() + "@example.com";
        HttpResponse<String> created = givingBirthDate(browser, twelve, Map.of("correo_tutor", tutor));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(302);
        assertThat(WebClient.location(created)).isEqualTo("/");
        var account = accounts.findByEmail(person.email()).orElseThrow();
        assertThat(linkedUser("google", "user:" + person.id())).isEqualTo(account.getId());
        assertThat(jdbc.queryForObject("select fecha_nacimiento from birth_dates where user_id = ?", java.sql.Date.class,
                account.getId()).toLocalDate().toString()).isEqualTo(twelve);
        assertThat(jdbc.queryForObject("select estado from parental_consents where user_id = ?", String.class,
                account.getId())).isEqualTo("pendiente");
        assertThat(browser.get("/cuenta/").statusCode()).isEqualTo(200);
        assertThat(MailFiles.newest(tutor, "¿Das permiso a Nil para tener una cuenta?")).isNotNull();
        // the page is gone once used, and the next login asks nothing
        assertThat(WebClient.location(browser.get("/login/fecha-nacimiento"))).endsWith("/login/");
        HttpResponse<String> again = FEDERATION.beforeBirthDate(new WebClient(PORT), person.browser(), "/login/federado/google", "google");
        assertThat(WebClient.location(again)).isEqualTo("/");
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
        ProviderPerson person = FEDERATION.atProvider("Greta", true);
        var browser = new WebClient(PORT);

        HttpResponse<String> landed = FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google", "google");

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
        HttpResponse<String> again = FEDERATION.viaProvider(later, person.browser(), "/login/federado/google", "google");
        assertThat(WebClient.location(again)).isEqualTo("/");
        assertThat(later.get("/cuenta/").body()).contains(person.email());
        assertThat(jdbc.queryForObject("select count(*) from users where correo = ?", Long.class, person.email())).isEqualTo(1);
    }

    static final Pattern SIGN_UP_LINK = Pattern.compile("/registro/confirmar\\?token=([A-Za-z0-9_-]{43})");
    static final Pattern RESET_LINK = Pattern.compile("/login/restablecer\\?token=([A-Za-z0-9_-]{43})");
    static final AtomicInteger CLIENTS = new AtomicInteger(1);

    /** A client address of its own for each request that spends a budget per address (sign-up, recovery). */
    static String clientAddress() {
        return "198.51.100." + CLIENTS.getAndIncrement();
    }

    /**
     * The sign-up page that a provider's unverified address led to, sent with what it shows (D44): the address
     * typed already, and the name; the token of the link then mailed to that address.
     */
    static String signUpAsShown(WebClient browser, String email, String name) throws Exception {
        HttpResponse<String> form = browser.get("/registro");
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).contains("id=\"signup-unverified\"").contains("que no ha confirmado tu dirección de correo")
                .contains("value=\"" + email + "\"").contains("value=\"" + name + "\"")
                .doesNotContain("name=\"password\"");
        HttpResponse<String> sent = browser.postForm("/registro", Map.of("correo", email, "primer_nombre", name, "fecha_nacimiento", "1990-05-17",
                "_csrf", WebClient.csrfOf(form.body())), "X-Forwarded-For", clientAddress());
        assertThat(sent.statusCode()).isEqualTo(200);
        assertThat(sent.body()).contains("Te hemos enviado un correo a");
        return MailFiles.link(MailFiles.newest(email, "Confirma tu cuenta"), SIGN_UP_LINK);
    }

    /** The link's page, then its button, in {@code browser}. */
    static HttpResponse<String> confirmSignUp(WebClient browser, String token) {
        HttpResponse<String> page = browser.get("/registro/confirmar?token=" + token);
        assertThat(page.statusCode()).isEqualTo(200);
        return browser.postForm("/registro/confirmar", Map.of("token", token, "_csrf", WebClient.csrfOf(page.body())));
    }

    /** D44: an address the provider did not verify makes no account; the link mailed to it makes it, linked. */
    @Test
    void anAddressTheProviderDidNotVerifyMakesNoAccountUntilTheLinkMailedThereIsUsed() throws Exception {
        ProviderPerson person = FEDERATION.atProvider("Ulises", false);
        var browser = new WebClient(PORT);

        HttpResponse<String> landed = FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google", "google");

        assertThat(WebClient.location(landed)).isEqualTo("/registro");
        assertThat(accounts.findByEmail(person.email())).isEmpty();
        assertThat(browser.get("/cuenta/").statusCode()).as("nobody logged in").isEqualTo(302);
        String token = signUpAsShown(browser, person.email(), "Ulises");
        assertThat(accounts.findByEmail(person.email())).as("not before the link is used").isEmpty();
        HttpResponse<String> page = new WebClient(PORT).get("/registro/confirmar?token=" + token);
        assertThat(page.body()).contains("id=\"signup-link-identity\"").contains("google")
                .contains("user:" + person.id());

        HttpResponse<String> created = confirmSignUp(browser, token);

        assertThat(WebClient.location(created)).isEqualTo("/");
        var account = accounts.findByEmail(person.email()).orElseThrow();
        assertThat(account.isEmailVerified()).isTrue();
        assertThat(account.isPasswordSet()).isFalse();
        assertThat(linkedUser("google", "user:" + person.id())).isEqualTo(account.getId());
        var later = new WebClient(PORT);
        assertThat(WebClient.location(FEDERATION.viaProvider(later, person.browser(), "/login/federado/google", "google")))
                .isEqualTo("/");
        assertThat(later.get("/cuenta/").body()).contains(person.email());
    }

    /**
     * Issue 39, the "nOAuth" pattern: an attacker's provider account asserts the victim's address, unverified. No
     * account is made for it; the sign-up link goes to the victim's mailbox (which names the identity and can be
     * refused); the victim makes the account their own way; the attacker's identity then meets the proof of that
     * account at /login/vincular and never gets in.
     */
    @Test
    void aProviderAssertingSomeoneElsesUnverifiedAddressNeverGetsIntoTheAccountItsOwnerMakes() throws Exception {
        String victim = "victima-" + UUID.randomUUID() + "@example.com";
        long attackerId = provider.person("Mallory", victim, PASSWORD, false);
        var attackerAtProvider = new WebClient(provider.port);
        assertThat(attackerAtProvider.login(victim, PASSWORD).statusCode()).isEqualTo(302);
        var attacker = new WebClient(PORT);

        assertThat(WebClient.location(FEDERATION.viaProvider(attacker, attackerAtProvider, "/login/federado/google", "google")))
                .isEqualTo("/registro");
        assertThat(accounts.findByEmail(victim)).as("no account on an unverified address").isEmpty();
        String attackersLink = signUpAsShown(attacker, victim, "Mallory");
        // the link is in the victim's mailbox only; its page names the sign-up and the identity, and is refused
        HttpResponse<String> page = new WebClient(PORT).get("/registro/confirmar?token=" + attackersLink);
        assertThat(page.body()).contains("«Mallory»").contains(victim).contains("user:" + attackerId);
        var victimsBrowser = new WebClient(PORT);
        HttpResponse<String> refused = victimsBrowser.postForm("/registro/confirmar", Map.of("token", attackersLink,
                "accion", "rechazar", "_csrf", WebClient.csrfOf(victimsBrowser.get("/registro/confirmar?token="
                        + attackersLink).body())));
        assertThat(refused.body()).contains("id=\"signup-refused\"");

        // the victim signs up with a password of their own
        HttpResponse<String> form = victimsBrowser.get("/registro");
        assertThat(victimsBrowser.postForm("/registro", Map.of("correo", victim, "primer_nombre", "Víctor", "password",
                "victims-own-password", "fecha_nacimiento", "1990-05-17", "_csrf", WebClient.csrfOf(form.body())), "X-Forwarded-For", clientAddress())
                .statusCode()).isEqualTo(200);
        String victimsLink = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            for (var mail : MailFiles.all(victim, "Confirma tu cuenta")) {
                String link = MailFiles.link(mail, SIGN_UP_LINK);
                if (!link.equals(attackersLink)) {
                    return link;
                }
            }
            return null;
        }, java.util.Objects::nonNull);
        assertThat(WebClient.location(confirmSignUp(victimsBrowser, victimsLink))).isEqualTo("/");
        long victimsAccount = accounts.findByEmail(victim).orElseThrow().getId();

        var again = new WebClient(PORT);
        assertThat(WebClient.location(FEDERATION.viaProvider(again, attackerAtProvider, "/login/federado/google", "google")))
                .as("the proof of the victim's account is asked").isEqualTo("/login/vincular");
        assertThat(again.get("/cuenta/").statusCode()).as("the attacker is not logged in").isEqualTo(302);
        assertThat(jdbc.queryForObject("select count(*) from linked_identities where user_id = ?", Long.class,
                victimsAccount)).isZero();
    }

    /**
     * D44's second half: an account whose address nobody had proved, with an identity linked (made by an unverified
     * provider address before D44, or an admin's account whose holder linked a provider), taken over by the
     * mailbox's owner through a recovery: the identity linked and the passkey added before the proof go, the
     * owner is told by mail, and neither logs in any more.
     */
    @Test
    void aRecoveryThatFirstProvesTheAddressRemovesTheIdentitiesAndPasskeysAddedBeforeIt() throws Exception {
        String victim = "antes-" + UUID.randomUUID() + "@example.com";
        long attackerId = provider.person("Mallory", victim, PASSWORD, false);
        var attackerAtProvider = new WebClient(provider.port);
        assertThat(attackerAtProvider.login(victim, PASSWORD).statusCode()).isEqualTo(302);
        // the state a provider's unverified address left before D44: the account, unverified, with the identity
        long account = accounts.createFederated("Mallory", victim, false, "google").getId();
        assertThat(links.link(account, "google", "user:" + attackerId)).isTrue();
        var attacker = new WebClient(PORT);
        assertThat(WebClient.location(FEDERATION.viaProvider(attacker, attackerAtProvider, "/login/federado/google", "google")))
                .isEqualTo("/");
        var device = new SoftwarePasskey(BASE);
        String csrf = attacker.csrfFrom("/cuenta/seguridad");
        var creation = postJson(attacker, "/webauthn/register/options", null, csrf);
        assertThat(postJson(attacker, "/webauthn/register", device.register(creation.body(), "Llave"), csrf).body())
                .contains("\"success\":true");

        // the mailbox's owner recovers the account
        var owner = new WebClient(PORT);
        assertThat(owner.postForm("/login/recuperar", Map.of("correo", victim, "_csrf", owner.csrfFrom("/login/recuperar")),
                "X-Forwarded-For", clientAddress()).statusCode()).isEqualTo(200);
        String token = MailFiles.link(MailFiles.newest(victim, "Restablece tu contraseña"), RESET_LINK);
        HttpResponse<String> reset = owner.get("/login/restablecer?token=" + token);
        HttpResponse<String> done = owner.postForm("/login/restablecer", Map.of("token", token, "nueva",
                "owners-new-password", "repetida", "owners-new-password", "_csrf", WebClient.csrfOf(reset.body())));
        assertThat(done.statusCode()).isEqualTo(200);

        assertThat(accounts.findById(account).orElseThrow().isEmailVerified()).isTrue();
        assertThat(jdbc.queryForObject("select count(*) from linked_identities where user_id = ?", Long.class, account))
                .isZero();
        assertThat(attacker.get("/cuenta/").statusCode()).as("the attacker's session ended").isEqualTo(302);
        var later = new WebClient(PORT);
        assertThat(WebClient.location(FEDERATION.viaProvider(later, attackerAtProvider, "/login/federado/google", "google")))
                .as("the identity no longer logs in").isEqualTo("/login/vincular");
        assertThat(later.get("/cuenta/").statusCode()).isEqualTo(302);
        var passkeyLogin = new WebClient(PORT);
        String loginCsrf = passkeyLogin.csrfFrom("/login/");
        var options = postJson(passkeyLogin, "/webauthn/authenticate/options", null, loginCsrf);
        assertThat(postJson(passkeyLogin, "/login/webauthn", device.authenticate(options.body()), loginCsrf).statusCode())
                .as("the passkey no longer logs in").isEqualTo(401);
        assertThat(passkeyLogin.get("/cuenta/").statusCode()).isEqualTo(302);
        String notice = MailFiles.text(MailFiles.newest(victim,
                "Hemos retirado de tu cuenta lo que se añadió antes de confirmar tu correo"));
        assertThat(notice).contains("Cuentas de otros proveedores desvinculadas: Google.")
                .contains("Llaves de acceso eliminadas: 1.");
        assertThat(WebClient.location(new WebClient(PORT).login(victim, "owners-new-password"))).isEqualTo("/");
    }

    @Test
    void anOAuth2ProviderWithoutOpenIdConnectIsReadThroughItsUserInfoMapping() throws Exception {
        ProviderPerson person = FEDERATION.atProvider("Dani", true);
        var browser = new WebClient(PORT);

        HttpResponse<String> landed = FEDERATION.viaProvider(browser, person.browser(), "/login/federado/discord", "discord");

        // /api/userinfo.php asserts nothing about the address (D44): the address and the name it gives are typed
        // in the sign-up form, and its link makes the account with the subject it gives linked
        assertThat(WebClient.location(landed)).isEqualTo("/registro");
        assertThat(WebClient.location(confirmSignUp(browser, signUpAsShown(browser, person.email(), "Dani"))))
                .isEqualTo("/");
        var account = accounts.findByEmail(person.email()).orElseThrow();
        assertThat(account.getPrimerNombre()).isEqualTo("Dani");
        assertThat(account.isEmailVerified()).isTrue();
        assertThat(linkedUser("discord", Long.toString(person.id()))).isEqualTo(account.getId());
    }

    @Test
    void anAddressThatHasAnAccountIsLinkedOnlyAfterThePersonProvesThatAccount() {
        ProviderPerson person = FEDERATION.atProvider("Lara", true);
        long mine = accounts.create("Lara", person.email(), "my-password-here-1", Role.USER).getId();
        var browser = new WebClient(PORT);

        HttpResponse<String> asked = FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google", "google");

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
        assertThat(WebClient.location(FEDERATION.viaProvider(later, person.browser(), "/login/federado/google", "google"))).isEqualTo("/");
        assertThat(later.get("/cuenta/").body()).contains(person.email());
    }

    /** §19: a passkey proves the account at /login/vincular too (the login page's passkey login, then its end). */
    @Test
    void anAddressThatHasAnAccountIsLinkedAfterAPasskeyOfThatAccount() {
        ProviderPerson person = FEDERATION.atProvider("Paz", true);
        long mine = accounts.create("Paz", person.email(), "my-password-here-2", Role.USER).getId();
        var device = new SoftwarePasskey(BASE);
        var owner = new WebClient(PORT);
        assertThat(owner.login(person.email(), "my-password-here-2").statusCode()).isEqualTo(302);
        String ownerCsrf = owner.csrfFrom("/cuenta/seguridad");
        var creation = postJson(owner, "/webauthn/register/options", null, ownerCsrf);
        assertThat(postJson(owner, "/webauthn/register", device.register(creation.body(), "Móvil"), ownerCsrf).body())
                .contains("\"success\":true");

        var browser = new WebClient(PORT);
        assertThat(WebClient.location(FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google", "google")))
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

    /**
     * §26: a person whom a global sanction keeps out is refused once the provider has answered, and once their passkey
     * has, and the login page says why and until when (here: for good); nobody is logged in.
     */
    @Test
    void aSuspendedPersonIsRefusedAfterTheProviderAndAfterTheirPasskeyWithTheReason() {
        ProviderPerson person = FEDERATION.atProvider("Sara", true);
        long id = accounts.create("Sara", person.email(), "my-password-here-3", Role.USER).getId();
        var device = new SoftwarePasskey(BASE);
        var owner = new WebClient(PORT);
        assertThat(owner.login(person.email(), "my-password-here-3").statusCode()).isEqualTo(302);
        String ownerCsrf = owner.csrfFrom("/cuenta/seguridad");
        var creation = postJson(owner, "/webauthn/register/options", null, ownerCsrf);
        assertThat(postJson(owner, "/webauthn/register", device.register(creation.body(), "Phone"), ownerCsrf).body())
                .contains("\"success\":true");
        var linking = new WebClient(PORT);
        assertThat(WebClient.location(FEDERATION.viaProvider(linking, person.browser(), "/login/federado/google", "google")))
                .isEqualTo("/login/vincular");
        assertThat(linking.postForm("/login/vincular", Map.of("password", "my-password-here-3",
                "_csrf", linking.csrfFrom("/login/vincular"))).statusCode()).isEqualTo(302);
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();

        sanctions.place(Sanctioner.of(new Caller(admin, true)), id, "Fraude con tarjetas", null, null);

        var viaGoogle = new WebClient(PORT);
        HttpResponse<String> refused = FEDERATION.viaProvider(viaGoogle, person.browser(), "/login/federado/google", "google");
        assertThat(WebClient.location(refused)).isEqualTo("/login/?suspendida=1");
        assertThat(viaGoogle.get("/login/?suspendida=1").body()).contains("id=\"suspended\"")
                .contains("Tu cuenta está suspendida de forma permanente.").contains("<strong>Fraude con tarjetas</strong>");
        assertThat(viaGoogle.get("/cuenta/").statusCode()).as("nobody logged in").isEqualTo(302);

        var viaPasskey = new WebClient(PORT);
        String csrf = viaPasskey.csrfFrom("/login/");
        var options = postJson(viaPasskey, "/webauthn/authenticate/options", null, csrf);
        HttpResponse<String> passkey = postJson(viaPasskey, "/login/webauthn", device.authenticate(options.body()), csrf);
        assertThat(passkey.statusCode()).isEqualTo(403);
        assertThat(passkey.body()).isEqualTo("{\"authenticated\":false,\"redirectUrl\":\"/login/?suspendida=1\"}");
        assertThat(viaPasskey.get("/login/?suspendida=1", "Accept-Language", "en").body())
                .contains("Your account is suspended permanently.").contains("<strong>Fraude con tarjetas</strong>");
        assertThat(viaPasskey.get("/cuenta/").statusCode()).as("nobody logged in").isEqualTo(302);
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
        ProviderPerson person = FEDERATION.atProvider("Amaia", true);
        var browser = new WebClient(PORT);
        String toLogin = pathOf(WebClient.location(browser.get(authorize)));
        String redirect = UriUtils.decode(UriComponentsBuilder.fromUriString(toLogin).build().getQueryParams()
                .getFirst("redirect"), StandardCharsets.UTF_8);
        String button = browser.get(toLogin).body();
        assertThat(button).contains("href=\"/login/federado/google?redirect=");

        HttpResponse<String> landed = FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google?redirect="
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
        ProviderPerson person = FEDERATION.atProvider("Marta", true);
        var browser = new WebClient(PORT);
        assertThat(WebClient.location(FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google", "google")))
                .isEqualTo("/");

        HttpResponse<String> demanded = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of("response_type",
                "code", "client_id", app.clientId(), "redirect_uri", app.redirectUri(), "scope", "openid",
                "acr_values", "mfa", "state", "s-2")));

        assertThat(demanded.statusCode()).isEqualTo(302);
        assertThat(pathOf(WebClient.location(demanded))).isEqualTo("/login/segundo-paso/alta");
    }

    @Test
    void theLastWayToLogInCannotBeUnlinkedAnotherOneCanBeLinkedAndThenItCan() {
        ProviderPerson person = FEDERATION.atProvider("Íker", true);
        var browser = new WebClient(PORT);
        FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google", "google");
        long id = accounts.findByEmail(person.email()).orElseThrow().getId();
        long google = jdbc.queryForObject("select id from linked_identities where user_id = ? and provider = 'google'",
                Long.class, id);
        String security = browser.get("/cuenta/seguridad").body();

        HttpResponse<String> refused = browser.postForm("/cuenta/seguridad/vinculos/desvincular", Map.of("vinculo",
                Long.toString(google), "_csrf", WebClient.csrfOf(security)));
        assertThat(WebClient.location(refused)).isEqualTo("/cuenta/seguridad?vinculo=ultimo");
        assertThat(browser.get("/cuenta/seguridad?vinculo=ultimo").body()).contains("es tu única forma de entrar");

        // "Vincular Discord" from the logged-in session: the same provider person, through Discord's registration
        HttpResponse<String> linked = FEDERATION.viaProvider(browser, person.browser(), "/login/federado/discord?vincular=1", "discord");
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
        ProviderPerson person = FEDERATION.atProvider("Lea", true);
        var browser = new WebClient(PORT);
        assertThat(WebClient.location(FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google", "google")))
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
        ProviderPerson stranger = FEDERATION.atProvider("Otra", true);
        HttpResponse<String> other = FEDERATION.viaProvider(browser, stranger.browser(), "/login/federado/google?reautenticar=1",
                "google");
        assertThat(WebClient.location(other)).isEqualTo("/cuenta/eliminar?reautenticacion=otra");
        HttpResponse<String> told = browser.get("/cuenta/eliminar?reautenticacion=otra");
        assertThat(told.body()).contains(person.email()).contains("no es la vinculada a tu cuenta");
        assertThat(accounts.findByEmail(stranger.email())).as("nothing made for the stranger").isEmpty();

        HttpResponse<String> again = FEDERATION.viaProvider(browser, person.browser(), "/login/federado/google?reautenticar=1",
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
