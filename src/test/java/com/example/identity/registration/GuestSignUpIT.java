package com.example.identity.registration;

import static com.example.identity.registration.RegistrationIT.newAddress;
import static com.example.identity.registration.RegistrationIT.token;
import static com.example.identity.registration.RegistrationIT.withoutAddress;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.mail.internet.MimeMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.example.identity.account.AccountDeletion;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.Mailbox;
import com.example.identity.support.WebClient;
import com.example.identity.webhooks.Webhooks;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A guest keeps its progress by signing up (decisions §18 and §24) over real HTTP, the mail through a real SMTP server
 * in the test (GreenMail): the game's address opens the sign-up page for that guest; its mailed link turns the very
 * same account into a full one (same id, same {@code sub}, the guest's refresh token still good, role {@code user},
 * the address proved, {@code usuario.actualizado} to the game); an address that has an account merges nothing and
 * the link's page says so, while the form's answer stays the same as for a new address.
 */
@IntegrationTest
class GuestSignUpIT {

    @RegisterExtension
    static final Mailbox MAIL = new Mailbox(Duration.ofSeconds(10));

    @DynamicPropertySource
    static void mail(DynamicPropertyRegistry registry) {
        MAIL.register(registry);
    }

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String PASSWORD = "my-own-password-1";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    Webhooks webhooks;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    AccountDeletion deletion;

    @Autowired
    SanctionService sanctions;

    /** A guest of a game, as the game's first start makes it: its tokens. */
    record Guest(long id, String clientId, String accessToken, String refreshToken) {
    }

    Guest newGuest() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var game = clients.register(owner, "Juego", "http://127.0.0.1/juego", List.of(), ClientType.NATIVE, null,
                com.example.identity.client.SenderConstraints.NONE, true);
        // where the game's back end hears of its players (nobody listens on that port: the message waits)
        webhooks.register(game.clientId(), "http://127.0.0.1:9/eventos");
        HttpResponse<String> made = new WebClient(port).postForm("/oauth/invitado.php", Map.of("client_id", game.clientId(),
                "scope", "openid profile"), "X-Forwarded-For", clientAddress());
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        String access = json(made).get("access_token").asString();
        long id = json(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + access)).get("user")
                .get("id").asLong();
        return new Guest(id, game.clientId(), access, json(made).get("refresh_token").asString());
    }

    static String clientAddress() {
        var random = ThreadLocalRandom.current();
        return "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + (1 + random.nextInt(254));
    }

    /** The game's "keep progress" button: the address it opens, as a path of this service. */
    String conversionPage(Guest guest) {
        HttpResponse<String> answer = new WebClient(port).postRaw("/api/invitados/convertir.php", "", "Authorization",
                "Bearer " + guest.accessToken());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String url = json(answer).get("url").asString();
        assertThat(url).startsWith("http://localhost:8080/registro?invitado=");
        return url.substring("http://localhost:8080".length());
    }

    /** The page opened, then the form sent in the same browser; the form's answer. */
    static HttpResponse<String> signUpThere(WebClient browser, String page, String correo) {
        HttpResponse<String> form = browser.get(page);
        assertThat(form.statusCode()).as(form.body()).isEqualTo(200);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("correo", correo);
        fields.put("primer_nombre", "Nerea");
        fields.put("password", PASSWORD);
        fields.put("fecha_nacimiento", "1990-05-17");
        fields.put("_csrf", WebClient.csrfOf(form.body()));
        return browser.postForm("/registro", fields, "X-Forwarded-For", clientAddress());
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    HttpResponse<String> refresh(Guest guest) {
        return new WebClient(port).postForm("/oauth/token.php", Map.of("grant_type", "refresh_token", "refresh_token",
                guest.refreshToken(), "client_id", guest.clientId()));
    }

    /** Decisions §26: a guest a global sanction keeps out keeps no progress: its link says why and until when. */
    @Test
    void aSuspendedGuestsLinkConvertsNothingAndSaysWhy() {
        Guest guest = newGuest();
        String page = conversionPage(guest);
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        sanctions.place(Sanctioner.of(new Caller(admin, true)), guest.id(), "Trampas siendo invitado", null, null);

        var browser = new WebClient(port);
        HttpResponse<String> refused = browser.get(page);

        assertThat(WebClient.location(refused)).isEqualTo("/login/?suspendida=1");
        assertThat(browser.get("/login/?suspendida=1").body()).contains("Tu cuenta está suspendida de forma permanente.")
                .contains("<strong>Trampas siendo invitado</strong>");
        assertThat(browser.get("/registro").body()).as("no conversion under way in this session")
                .doesNotContain("id=\"guest-conversion\"");
        assertThat(accounts.findById(guest.id()).orElseThrow().getRol().value()).isEqualTo("invitado");
    }

    @Test
    void aGuestSignsUpFromTheGamesAddressAndKeepsTheSameAccount() throws Exception {
        Guest guest = newGuest();
        String name = accounts.findById(guest.id()).orElseThrow().getPrimerNombre();
        var browser = new WebClient(port);
        String address = conversionPage(guest);
        HttpResponse<String> page = browser.get(address);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Guardar tu progreso").contains("id=\"guest-conversion\"").contains(name);

        String correo = newAddress();
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("correo", correo);
        fields.put("primer_nombre", "Nerea");
        fields.put("password", PASSWORD);
        fields.put("fecha_nacimiento", "1990-05-17");
        fields.put("_csrf", WebClient.csrfOf(page.body()));
        HttpResponse<String> sent = browser.postForm("/registro", fields, "X-Forwarded-For", clientAddress());
        assertThat(sent.statusCode()).isEqualTo(200);
        assertThat(sent.body()).contains("Te hemos enviado un correo a").contains(correo);
        MimeMessage mail = MAIL.mailFor(correo, 1).get(0);
        assertThat(mail.getSubject()).isEqualTo("Guarda tu progreso");
        assertThat(Mailbox.text(mail)).contains("Para guardar tu progreso de invitado en una cuenta con la dirección " + correo);
        // nothing changed yet: the guest is a guest until the link is used
        assertThat(accounts.findById(guest.id()).orElseThrow().getRol()).isEqualTo(Role.INVITADO);

        // the link, opened on a phone
        var phone = new WebClient(port);
        String token = token(mail);
        HttpResponse<String> landing = phone.get("/registro/confirmar?token=" + token);
        assertThat(landing.statusCode()).isEqualTo(200);
        assertThat(landing.body()).contains(correo).contains("id=\"signup-guest\"").contains(name);
        HttpResponse<String> converted = phone.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                WebClient.csrfOf(landing.body())));
        assertThat(converted.statusCode()).as(converted.body()).isEqualTo(302);
        assertThat(WebClient.location(converted)).isEqualTo("/?invitado=guardado");
        assertThat(phone.get("/?invitado=guardado").body()).contains("id=\"guest-kept\"").contains(correo);

        // the same account: same id, role user, the address set and proved, the form's name and password
        UserAccount account = accounts.findByEmail(correo).orElseThrow();
        assertThat(account.getId()).isEqualTo(guest.id());
        assertThat(account.getRol()).isEqualTo(Role.USER);
        assertThat(account.isEmailVerified()).isTrue();
        assertThat(account.getPrimerNombre()).isEqualTo("Nerea");
        assertThat(WebClient.location(new WebClient(port).login(correo, PASSWORD))).doesNotContain("error");
        assertThat(jdbc.queryForObject("select count(*) from guests where user_id = ?", Long.class, guest.id())).isZero();
        // the game's tokens go on working, now for the full account
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + guest.accessToken()).body())
                .isEqualTo("{\"ok\":true,\"user\":{\"id\":" + guest.id() + ",\"primer_nombre\":\"Nerea\",\"correo\":\""
                        + correo + "\",\"rol\":\"user\"}}");
        HttpResponse<String> refreshed = refresh(guest);
        assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
        String idToken = json(refreshed).get("id_token").asString();
        var claims = com.nimbusds.jwt.JWTParser.parse(idToken).getJWTClaimsSet();
        assertThat(claims.getSubject()).isEqualTo("user:" + guest.id());
        assertThat(claims.getBooleanClaim("invitado")).isFalse();
        // the game's back end hears of it: usuario.actualizado with the address
        String payload = jdbc.queryForObject("select payload from outbox_messages where message_key = ? order by id desc "
                + "fetch first 1 rows only", String.class, "webhook:" + guest.clientId() + ":user:" + guest.id());
        JsonNode event = JSON.readTree(JSON.readTree(payload).get("body").asString());
        assertThat(event.get("type").asString()).isEqualTo("usuario.actualizado");
        assertThat(event.get("data").toString()).isEqualTo("{\"id\":" + guest.id() + ",\"sub\":\"user:" + guest.id()
                + "\",\"primer_nombre\":\"Nerea\",\"correo\":\"" + correo + "\",\"rol\":\"user\",\"activo\":true}");
        // audited, naming the guest it was
        assertThat(jdbc.queryForObject("select subject from audit_events where event = 'GUEST_CONVERTED' and actor = ?",
                String.class, correo)).isEqualTo("usuario #" + guest.id() + " (invitado) → usuario #" + guest.id() + " "
                        + correo + " (registro)");

        // the person's download (decisions §20) says what was kept of the guest: the address its game asked for
        JsonNode kept = json(phone.get("/cuenta/datos")).get("invitado");
        assertThat(kept.get("aplicacion").isNull()).as("no guest any more").isTrue();
        assertThat(kept.get("enlaces_para_guardar_progreso").size()).isEqualTo(1);
        assertThat(kept.get("enlaces_para_guardar_progreso").get(0).get("usado").asString()).isNotEmpty();
        assertThat(kept.toString()).doesNotContain(address.substring(address.indexOf('=') + 1));

        // the link is spent, and a second conversion address is refused: the account is no guest any more
        assertThat(new WebClient(port).get("/registro/confirmar?token=" + token).statusCode()).isEqualTo(400);
        HttpResponse<String> noMore = new WebClient(port).postRaw("/api/invitados/convertir.php", "", "Authorization",
                "Bearer " + guest.accessToken());
        assertThat(noMore.statusCode()).isEqualTo(409);
        assertThat(noMore.body()).isEqualTo("{\"ok\":false,\"error\":\"La cuenta no es de invitado\"}");
    }

    @Test
    void anAddressThatHasAnAccountMergesNothingAndTheLinksPageSaysSo() throws Exception {
        Guest guest = newGuest();
        String taken = newAddress();
        long owner = accounts.create("Dueña", taken, "the-owners-password", Role.USER).getId();
        String fresh = newAddress();

        // the form answers the same for a taken and a new address: only the mailbox learns which
        HttpResponse<String> forTaken = signUpThere(new WebClient(port), conversionPage(guest), taken);
        HttpResponse<String> forFresh = signUpThere(new WebClient(port), conversionPage(newGuest()), fresh);
        assertThat(forTaken.statusCode()).isEqualTo(forFresh.statusCode()).isEqualTo(200);
        assertThat(withoutAddress(forTaken.body(), taken).replaceAll("Invitado \\d{4}", "GUEST"))
                .isEqualTo(withoutAddress(forFresh.body(), fresh).replaceAll("Invitado \\d{4}", "GUEST"));

        MimeMessage mail = MAIL.mailFor(taken, 1).get(0);
        assertThat(mail.getSubject()).isEqualTo("Guarda tu progreso");
        String token = token(mail);
        var owners = new WebClient(port);
        HttpResponse<String> page = owners.get("/registro/confirmar?token=" + token);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"guest-taken\"")
                .contains("Esa dirección de correo ya es de una cuenta de este servicio: no se ha unido nada.")
                .contains("Tu partida de invitado sigue siendo de invitado").contains("id=\"guest-taken-login\"")
                .contains("href=\"/login/\"").doesNotContain("signup-confirm-form");
        // and in English
        HttpResponse<String> english = new WebClient(port).get("/registro/confirmar?token=" + token, "Accept-Language", "en");
        assertThat(english.body()).contains("That e-mail address already belongs to an account of this service: "
                + "nothing was merged.").contains("Log in to that account");
        // a POST of the form does nothing either
        HttpResponse<String> post = owners.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                owners.csrfFrom("/registro")));
        assertThat(post.statusCode()).isEqualTo(400);
        assertThat(post.body()).contains("id=\"guest-taken\"");

        // the guest is still a guest, with its tokens; the owner's account untouched
        assertThat(accounts.findById(guest.id()).orElseThrow().getRol()).isEqualTo(Role.INVITADO);
        assertThat(accounts.findById(guest.id()).orElseThrow().getCorreo()).isNull();
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + guest.accessToken()).body())
                .contains("\"correo\":null,\"rol\":\"invitado\"");
        assertThat(accounts.findByEmail(taken).orElseThrow().getId()).isEqualTo(owner);
        assertThat(accounts.findByEmail(taken).orElseThrow().getPrimerNombre()).isEqualTo("Dueña");
    }

    @Test
    void aGuestDeletedBeforeTheLinkIsUsedMakesNoAccount() throws Exception {
        Guest guest = newGuest();
        String correo = newAddress();
        assertThat(signUpThere(new WebClient(port), conversionPage(guest), correo).statusCode()).isEqualTo(200);
        String token = token(MAIL.mailFor(correo, 1).get(0));
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        // an admin deletes the guest (decisions §20): its waiting sign-up's link no longer works
        assertThat(deletion.delete(guest.id(), new Caller(admin, true))).isEqualTo(AccountDeletion.Outcome.DELETED);
        HttpResponse<String> page = new WebClient(port).get("/registro/confirmar?token=" + token);
        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.body()).contains("id=\"signup-link-unusable\"");
        var owner = new WebClient(port);
        HttpResponse<String> post = owner.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                owner.csrfFrom("/registro")));
        assertThat(post.statusCode()).isEqualTo(400);
        assertThat(accounts.findByEmail(correo)).isEmpty();
    }
}
