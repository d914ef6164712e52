package com.example.identity.federation;

import static com.example.identity.federation.ProviderLogin.givingBirthDate;
import static com.example.identity.federation.ProviderLogin.newEmail;
import static com.example.identity.federation.ProviderLogin.pathOf;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.WebClient;

import tools.jackson.databind.json.JsonMapper;

/**
 * A guest keeps its progress with "Entrar con …" (decisions §19 and §24) against a REAL OpenID Connect provider, the
 * one {@link FederatedLoginIT} uses ({@link OtherProvider}, registered as "Google" by its {@code issuer-uri}): the
 * provider's login on the guest's conversion page turns that very account into a full one, with the provider's
 * verified address and identity linked; an identity or an address that is already someone's merges nothing, and the
 * page says which and offers to log in to that account.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
class GuestProviderConversionIT {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final ProviderLogin FEDERATION = new ProviderLogin();
    static final int PORT = FEDERATION.port;
    static final String BASE = FEDERATION.base;
    /**
     * The registration id: not FederatedLoginIT's "google", whose subjects ({@code user:<id>} of another provider
     * instance, numbered from the same start) are linked in the database the tests of this JVM share.
     */
    static final String REG = "partida";
    static OtherProvider provider;

    @DynamicPropertySource
    static void providers(DynamicPropertyRegistry registry) {
        provider = FEDERATION.start(registry, REG);
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

    record Guest(long id, String accessToken, String refreshToken, String clientId) {
    }

    Guest newGuest() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var game = clients.register(owner, "Juego", "http://127.0.0.1/juego", List.of(), ClientType.NATIVE, null,
                com.example.identity.client.SenderConstraints.NONE, true);
        var random = ThreadLocalRandom.current();
        HttpResponse<String> made = new WebClient(PORT).postForm("/oauth/invitado.php", Map.of("client_id", game.clientId()),
                "X-Forwarded-For", "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + (1 + random.nextInt(254)));
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        String access = JSON.readTree(made.body()).get("access_token").asString();
        long id = JSON.readTree(new WebClient(PORT).get("/api/userinfo.php", "Authorization", "Bearer " + access).body())
                .get("user").get("id").asLong();
        return new Guest(id, access, JSON.readTree(made.body()).get("refresh_token").asString(), game.clientId());
    }

    /** The game's address, opened in {@code browser}: the conversion page, with its "Entrar con Google" button. */
    static void openConversionPage(Guest guest, WebClient browser) {
        HttpResponse<String> answer = new WebClient(PORT).postRaw("/api/invitados/convertir.php", "", "Authorization",
                "Bearer " + guest.accessToken());
        String url = JSON.readTree(answer.body()).get("url").asString();
        HttpResponse<String> page = browser.get(url.substring(BASE.length()));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"guest-federated-" + REG + "\"")
                .contains("href=\"/login/federado/" + REG + "?invitado=1\"").contains(">Entrar con Google</a>");
    }

    @Test
    void entrarConGoogleOnTheConversionPageTurnsTheGuestIntoAFullAccount() {
        Guest guest = newGuest();
        var here = new WebClient(PORT);
        openConversionPage(guest, here);
        var person = FEDERATION.atProvider("Iria", newEmail(), true);

        HttpResponse<String> arrived = FEDERATION.viaProvider(here, person.browser(), "/login/federado/" + REG + "?invitado=1",
                REG);

        assertThat(arrived.statusCode()).as(arrived.body()).isEqualTo(302);
        assertThat(pathOf(WebClient.location(arrived))).isEqualTo("/?invitado=guardado");
        assertThat(here.get("/?invitado=guardado").body()).contains("id=\"guest-kept\"").contains(person.email());
        UserAccount account = accounts.findById(guest.id()).orElseThrow();
        assertThat(account.getRol()).isEqualTo(Role.USER);
        assertThat(account.getCorreo()).isEqualTo(person.email());
        assertThat(account.isEmailVerified()).isTrue();
        assertThat(account.getPrimerNombre()).isEqualTo("Iria");
        assertThat(account.isPasswordSet()).isFalse();
        assertThat(jdbc.queryForObject("select user_id from linked_identities where provider = '" + REG + "' and subject = ?",
                Long.class, "user:" + person.id())).isEqualTo(guest.id());
        assertThat(jdbc.queryForObject("select count(*) from guests where user_id = ?", Long.class, guest.id())).isZero();
        // the game's token speaks for the full account now
        assertThat(new WebClient(PORT).get("/api/userinfo.php", "Authorization", "Bearer " + guest.accessToken()).body())
                .isEqualTo("{\"ok\":true,\"user\":{\"id\":" + guest.id() + ",\"primer_nombre\":\"Iria\",\"correo\":\""
                        + person.email() + "\",\"rol\":\"user\"}}");
        // and Google logs that account in from now on
        var later = new WebClient(PORT);
        HttpResponse<String> again = FEDERATION.viaProvider(later, person.browser(), "/login/federado/" + REG, REG);
        assertThat(pathOf(WebClient.location(again))).isEqualTo("/");
        assertThat(later.get("/cuenta/").body()).contains(person.email());
    }

    @Test
    void aChildsConversionAsksTheBirthDateAndTheParentsAddressThenTheGameWaitsForTheParent() {
        Guest guest = newGuest();
        var here = new WebClient(PORT);
        openConversionPage(guest, here);
        var person = FEDERATION.atProvider("Teo", newEmail(), true);
        HttpResponse<String> asked = FEDERATION.beforeBirthDate(here, person.browser(), "/login/federado/" + REG + "?invitado=1", REG);
        assertThat(WebClient.location(asked)).isEqualTo("/login/fecha-nacimiento");
        assertThat(accounts.findById(guest.id()).orElseThrow().getRol()).as("still a guest").isEqualTo(Role.INVITADO);
        String twelve = java.time.LocalDate.now(java.time.ZoneId.of("Europe/Madrid")).minusYears(12).toString();
        HttpResponse<String> arrived = givingBirthDate(here, twelve, Map.of("correo_tutor", "tutor-" + UUID.randomUUID()
                + "@example.com"));
        assertThat(pathOf(WebClient.location(arrived))).isEqualTo("/?invitado=guardado");
        UserAccount account = accounts.findById(guest.id()).orElseThrow();
        assertThat(account.getRol()).isEqualTo(Role.USER);
        assertThat(jdbc.queryForObject("select estado from parental_consents where user_id = ?", String.class, guest.id()))
                .isEqualTo("pendiente");
        // the progress is kept, but the game's refresh waits for the parent (D49)
        HttpResponse<String> refreshed = new WebClient(PORT).postForm("/oauth/token.php", Map.of("grant_type", "refresh_token",
                "refresh_token", guest.refreshToken(), "client_id", guest.clientId()));
        assertThat(refreshed.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(refreshed.body()).get("error").asString()).isEqualTo("invalid_grant");
        assertThat(JSON.readTree(refreshed.body()).get("error_description").asString())
                .isEqualTo("La cuenta espera el consentimiento de su madre, padre o tutor");
    }

    @Test
    void anIdentityThatLogsInToAnAccountMergesNothingAndThePageOffersThatAccount() {
        var person = FEDERATION.atProvider("Olalla", newEmail(), true);
        // the identity already has an account here (its first login made it)
        HttpResponse<String> first = FEDERATION.viaProvider(new WebClient(PORT), person.browser(),
                "/login/federado/" + REG, REG);
        assertThat(first.statusCode()).isEqualTo(302);
        long owner = accounts.findByEmail(person.email()).orElseThrow().getId();
        Guest guest = newGuest();
        var here = new WebClient(PORT);
        openConversionPage(guest, here);

        HttpResponse<String> arrived = FEDERATION.viaProvider(here, person.browser(), "/login/federado/" + REG + "?invitado=1",
                REG);

        assertThat(pathOf(WebClient.location(arrived))).isEqualTo("/registro?ocupado=identidad&proveedor=" + REG);
        HttpResponse<String> page = here.get("/registro?ocupado=identidad&proveedor=" + REG);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"guest-taken\"")
                .contains("Esa cuenta del otro proveedor ya es la forma de entrar en una cuenta de este servicio: no se ha unido nada.")
                .contains("Tu partida de invitado sigue siendo de invitado").contains("id=\"guest-taken-" + REG + "\"")
                .contains("href=\"/login/federado/" + REG + "\"").doesNotContain("id=\"signup-form\"");
        assertThat(new WebClient(PORT).get("/registro?ocupado=identidad&proveedor=" + REG, "Accept-Language", "en").body())
                .contains("That account of the other provider already logs in to an account of this service: nothing was merged.")
                .contains("Your guest game is still a guest");
        // nothing logged in, nothing merged: the guest is a guest, the account is the person's alone
        assertThat(here.get("/cuenta/").statusCode()).isEqualTo(302);
        assertThat(accounts.findById(guest.id()).orElseThrow().getRol()).isEqualTo(Role.INVITADO);
        assertThat(accounts.findById(guest.id()).orElseThrow().getCorreo()).isNull();
        assertThat(jdbc.queryForObject("select user_id from linked_identities where provider = '" + REG + "' and subject = ?",
                Long.class, "user:" + person.id())).isEqualTo(owner);
        // the page's button logs in to that account: the conversion is over in this browser
        HttpResponse<String> login = FEDERATION.viaProvider(here, person.browser(), "/login/federado/" + REG, REG);
        assertThat(pathOf(WebClient.location(login))).isEqualTo("/");
        assertThat(here.get("/cuenta/").body()).contains(person.email());
        assertThat(accounts.findById(guest.id()).orElseThrow().getRol()).isEqualTo(Role.INVITADO);
    }

    @Test
    void anAddressThatHasAnAccountMergesNothingAndThePageSaysSo() {
        String taken = newEmail();
        long owner = accounts.create("Dueño", taken, "the-owners-password-1", Role.USER).getId();
        var person = FEDERATION.atProvider("Otro", taken, true);
        Guest guest = newGuest();
        var here = new WebClient(PORT);
        openConversionPage(guest, here);

        HttpResponse<String> arrived = FEDERATION.viaProvider(here, person.browser(), "/login/federado/" + REG + "?invitado=1",
                REG);

        assertThat(pathOf(WebClient.location(arrived))).isEqualTo("/registro?ocupado=correo");
        assertThat(here.get("/registro?ocupado=correo").body()).contains("id=\"guest-taken\"")
                .contains("Esa dirección de correo ya es de una cuenta de este servicio: no se ha unido nada.")
                .contains("id=\"guest-taken-login\"");
        assertThat(accounts.findById(guest.id()).orElseThrow().getRol()).isEqualTo(Role.INVITADO);
        assertThat(jdbc.queryForObject("select count(*) from linked_identities where subject = ?", Long.class,
                "user:" + person.id())).isZero();
        assertThat(accounts.findByEmail(taken).orElseThrow().getId()).isEqualTo(owner);
    }

    @Test
    void anAddressTheProviderDoesNotVouchForIsProvedByTheSignUpsLinkFirst() {
        var person = FEDERATION.atProvider("Sin verificar", newEmail(), false);
        Guest guest = newGuest();
        var here = new WebClient(PORT);
        openConversionPage(guest, here);

        HttpResponse<String> arrived = FEDERATION.viaProvider(here, person.browser(), "/login/federado/" + REG + "?invitado=1", REG);

        // the sign-up form of a provider's identity: an address to type, whose mailed link converts the guest
        assertThat(pathOf(WebClient.location(arrived))).isEqualTo("/registro");
        HttpResponse<String> form = here.get("/registro");
        assertThat(form.body()).contains("id=\"signup-unverified\"").contains("id=\"guest-conversion\"")
                .contains("value=\"" + person.email() + "\"").doesNotContain("name=\"password\"");
        assertThat(accounts.findById(guest.id()).orElseThrow().getRol()).isEqualTo(Role.INVITADO);
        assertThat(accounts.findByEmail(person.email())).isEmpty();
    }
}
