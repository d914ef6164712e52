package com.example.identity.minors;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.mail.internet.MimeMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.GuestAccounts;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;
import com.example.identity.client.ClientService;
import com.example.identity.common.Purge;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.Mailbox;
import com.example.identity.support.MovableClock;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

/**
 * D50: an admin sets the birth date of an account made before, by an admin or by the import
 * ({@code POST /api/usuarios/update.php}'s {@code fecha_nacimiento} and {@code correo_tutor}, and the admin page's form),
 * over real HTTP, every mail through GreenMail: an adult stays served, a 16-year-old is {@code menor} without consent, a
 * 12-year-old waits for the parent who is mailed as at a sign-up, a correction to 30 drops the pending request; every
 * refusal changes nothing, a guest has no date, and the audit line never holds the date.
 */
@IntegrationTest
class AdminBirthDateIT {

    @RegisterExtension
    static final Mailbox MAIL = new Mailbox(Duration.ofSeconds(10));

    @DynamicPropertySource
    static void mail(DynamicPropertyRegistry registry) {
        MAIL.register(registry);
    }

    static final String PASSWORD = "a-password-for-tests";
    static final String UPDATE = "/api/usuarios/update.php";
    static final String TUTOR_MISSING = "Con esa fecha tiene menos de 14 años: escribe también el correo de su madre, padre o "
            + "tutor (correo_tutor)";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    GuestAccounts guests;

    @Autowired
    ClientService clients;

    @Autowired
    BirthDates birthDates;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MovableClock clock;

    @Autowired
    List<Purge> purges;

    UserAccount user(Role role) {
        return accounts.create("Persona", "u-" + UUID.randomUUID() + "@example.com", PASSWORD, role);
    }

    String adminBearer() {
        return "Bearer " + tokens.createPersonal(user(Role.ADMIN).getId(), "cli", TokenScope.GESTION).value();
    }

    /** update.php with {@code fields} (and {@code id}) as the admin {@code auth}. */
    HttpResponse<String> update(String auth, long id, Map<String, String> fields) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("id", Long.toString(id));
        form.putAll(fields);
        return new WebClient(port).postForm(UPDATE, form, "Authorization", auth);
    }

    static void assertOk(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("{\"ok\":true}");
    }

    String yearsAgo(int years) {
        return birthDates.today().minusYears(years).minusMonths(2).toString();
    }

    static String newAddress(String who) {
        return who + "-" + UUID.randomUUID() + "@example.com";
    }

    static List<MimeMessage> mailFor(String email, int count) {
        return MAIL.mailFor(email, count);
    }

    String consentState(long id) {
        List<String> found = jdbc.queryForList("select estado from parental_consents where user_id = ?", String.class, id);
        return found.isEmpty() ? null : found.get(0);
    }

    long audited(long id) {
        return jdbc.queryForObject("select count(*) from audit_events where event = 'BIRTH_DATE_SET' and subject = ?",
                Long.class, "usuario #" + id);
    }

    ClientService.NewCredentials firstPartyApplication() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Juego", "https://game.example/cb/" + UUID.randomUUID());
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), client.clientId(), true);
        return client;
    }

    WebClient loggedIn(UserAccount account) {
        var browser = new WebClient(port);
        assertThat(browser.login(account.getCorreo(), PASSWORD).statusCode()).isEqualTo(302);
        return browser;
    }

    /** Where the application's authorization request in {@code browser} sends it. */
    static String authorize(WebClient browser, ClientService.NewCredentials client) {
        return MinorSignUpIT.authorize(browser, client);
    }

    /** The application's id_token claims and UserInfo answer for the person in {@code browser}, with {@code profile}. */
    List<JsonNode> claims(WebClient browser, ClientService.NewCredentials client) {
        HttpResponse<String> answer = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of("response_type", "code",
                "client_id", client.clientId(), "redirect_uri", client.redirectUri(), "scope", "openid profile", "state", "s")));
        String code = org.springframework.web.util.UriComponentsBuilder.fromUriString(WebClient.location(answer)).build()
                .getQueryParams().getFirst("code");
        assertThat(code).as(WebClient.location(answer)).isNotNull();
        HttpResponse<String> exchanged = new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(client, code));
        assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(200);
        JsonNode tokenAnswer = MinorSignUpIT.JSON.readTree(exchanged.body());
        HttpResponse<String> userInfo = new WebClient(port).get("/oauth/userinfo.php", "Authorization",
                "Bearer " + tokenAnswer.get("access_token").asString());
        assertThat(userInfo.statusCode()).as(userInfo.body()).isEqualTo(200);
        return List.of(MinorSignUpIT.idTokenClaims(tokenAnswer), MinorSignUpIT.JSON.readTree(userInfo.body()));
    }

    @Test
    void anAdultsDateIsKeptAndASixteenYearOldIsAMinorWithoutConsentAndTheAuditNeverHoldsTheDate() {
        String auth = adminBearer();
        var application = firstPartyApplication();
        UserAccount person = user(Role.USER);
        String thirty = yearsAgo(30);
        assertOk(update(auth, person.getId(), Map.of("fecha_nacimiento", thirty, "correo_tutor", newAddress("ignorado"))));
        assertThat(birthDates.of(person.getId())).hasValue(LocalDate.parse(thirty));
        assertThat(consentState(person.getId())).isNull();
        assertThat(audited(person.getId())).isEqualTo(1);
        // the same date again changes nothing, not even the trail
        assertOk(update(auth, person.getId(), Map.of("fecha_nacimiento", thirty)));
        assertThat(audited(person.getId())).isEqualTo(1);
        WebClient browser = loggedIn(person);
        for (JsonNode claims : claims(browser, application)) {
            assertThat(claims.get("menor").asBoolean()).isFalse();
            assertThat(claims.has("consentimiento_parental")).isFalse();
        }

        String sixteen = yearsAgo(16);
        assertOk(update(auth, person.getId(), Map.of("fecha_nacimiento", sixteen)));
        assertThat(birthDates.of(person.getId())).hasValue(LocalDate.parse(sixteen));
        assertThat(consentState(person.getId())).isNull();
        for (JsonNode claims : claims(browser, application)) {
            assertThat(claims.get("menor").asBoolean()).as("the cache was evicted").isTrue();
            assertThat(claims.has("consentimiento_parental")).isFalse();
            assertThat(claims.toString()).doesNotContain(sixteen).doesNotContain("birthdate");
        }
        assertThat(audited(person.getId())).isEqualTo(2);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where subject like ? or subject like ?", Long.class,
                "%" + thirty + "%", "%" + sixteen + "%")).as("the trail never holds a birth date").isZero();
    }

    @Test
    void aTwelveYearOldsDateAsksTheParentAsASignUpDoesAndApplicationsWaitUntilTheyAllow() throws Exception {
        String auth = adminBearer();
        var application = firstPartyApplication();
        UserAccount child = user(Role.USER);
        WebClient browser = loggedIn(child);
        assertThat(authorize(browser, application)).startsWith(application.redirectUri() + "?code=");
        String tutor = newAddress("madre");
        Instant before = clock.instant();
        assertOk(update(auth, child.getId(), Map.of("fecha_nacimiento", yearsAgo(12), "correo_tutor", tutor.toUpperCase())));
        assertThat(consentState(child.getId())).isEqualTo("pendiente");
        assertThat(jdbc.queryForObject("select correo_tutor from parental_consents where user_id = ?", String.class,
                child.getId())).isEqualTo(tutor);
        // the 7 days run from now
        Instant expires = jdbc.queryForObject("select expires_at from parental_consents where user_id = ?",
                java.sql.Timestamp.class, child.getId()).toInstant();
        assertThat(expires).isBetween(before.plus(Duration.ofDays(7)), clock.instant().plus(Duration.ofDays(7)));

        // every application's request ends with access_denied, with the same session
        assertThat(authorize(browser, application)).isEqualTo(application.redirectUri() + "?error=access_denied"
                + "&error_description=La%20cuenta%20espera%20el%20consentimiento%20de%20su%20madre%2C%20padre%20o%20tutor&state=s-9");

        // the parent's mail is the sign-up's
        MimeMessage request = mailFor(tutor, 1).get(0);
        assertThat(request.getSubject()).isEqualTo("¿Das permiso a Persona para tener una cuenta?");
        assertThat(Mailbox.text(request)).contains("Alguien que se ha presentado como «Persona», con la dirección "
                + child.getCorreo()).contains("tiene menos de 14 años");
        String token = Mailbox.link(request, MinorSignUpIT.CONSENT_LINK);
        var parent = new WebClient(port);
        HttpResponse<String> page = parent.get("/tutor/consentir?token=" + token);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(parent.postForm("/tutor/consentir", Map.of("token", token, "decision", "allow", "_csrf",
                WebClient.csrfOf(page.body()))).statusCode()).isEqualTo(200);
        for (JsonNode claims : claims(browser, application)) {
            assertThat(claims.get("menor").asBoolean()).isTrue();
            assertThat(claims.get("consentimiento_parental").asString()).isEqualTo("concedido");
        }

        // at 30 the granted consent is no longer needed: gone, and its withdrawal link with it
        String withdrawal = Mailbox.link(mailFor(tutor, 2).get(1), MinorSignUpIT.CONSENT_LINK);
        assertOk(update(auth, child.getId(), Map.of("fecha_nacimiento", yearsAgo(30))));
        assertThat(consentState(child.getId())).isNull();
        assertThat(parent.get("/tutor/consentir?token=" + withdrawal).statusCode()).isEqualTo(400);
        assertThat(claims(browser, application).get(0).get("menor").asBoolean()).isFalse();
    }

    @Test
    void correctingTwelveToThirtyDropsThePendingConsentWithoutAMailAndApplicationsServeAtOnce() {
        String auth = adminBearer();
        var application = firstPartyApplication();
        UserAccount person = user(Role.USER);
        WebClient browser = loggedIn(person);
        String tutor = newAddress("padre");
        assertOk(update(auth, person.getId(), Map.of("fecha_nacimiento", yearsAgo(12), "correo_tutor", tutor)));
        assertThat(authorize(browser, application)).contains("error=access_denied");
        String token = Mailbox.link(mailFor(tutor, 1).get(0), MinorSignUpIT.CONSENT_LINK);
        // a date still under the age keeps the request as it is: its parent, its link, its 7 days; no second mail
        assertOk(update(auth, person.getId(), Map.of("fecha_nacimiento", yearsAgo(11))));
        assertThat(consentState(person.getId())).isEqualTo("pendiente");

        assertOk(update(auth, person.getId(), Map.of("fecha_nacimiento", yearsAgo(30))));
        assertThat(consentState(person.getId())).isNull();
        assertThat(authorize(browser, application)).startsWith(application.redirectUri() + "?code=");
        for (JsonNode claims : claims(browser, application)) {
            assertThat(claims.get("menor").asBoolean()).isFalse();
            assertThat(claims.has("consentimiento_parental")).isFalse();
        }
        assertThat(new WebClient(port).get("/tutor/consentir?token=" + token).statusCode()).as("the link is spent")
                .isEqualTo(400);
        assertThat(mailFor(tutor, 2)).as("no other mail to the parent").hasSize(1);
        // 7 days later the retention job finds nothing of it to delete
        clock.advance(Duration.ofDays(7).plusMinutes(1));
        purges.stream().filter(p -> p.kind() == Purge.Kind.UNANSWERED_CONSENTS).findFirst().orElseThrow()
                .purge(clock.instant(), clock.instant());
        assertThat(accounts.findById(person.getId())).isPresent();
    }

    @Test
    void aWithdrawnConsentStaysWithTheDisabledAccountWhenTheDateIsCorrected() {
        String auth = adminBearer();
        UserAccount child = user(Role.USER);
        String tutor = newAddress("tutora");
        assertOk(update(auth, child.getId(), Map.of("fecha_nacimiento", yearsAgo(12), "correo_tutor", tutor)));
        var parent = new WebClient(port);
        String request = Mailbox.link(mailFor(tutor, 1).get(0), MinorSignUpIT.CONSENT_LINK);
        parent.postForm("/tutor/consentir", Map.of("token", request, "decision", "allow", "_csrf",
                parent.csrfFrom("/tutor/consentir?token=" + request)));
        String withdrawal = Mailbox.link(mailFor(tutor, 2).get(1), MinorSignUpIT.CONSENT_LINK);
        assertThat(parent.postForm("/tutor/consentir", Map.of("token", withdrawal, "decision", "withdraw", "_csrf",
                parent.csrfFrom("/tutor/consentir?token=" + withdrawal))).statusCode()).isEqualTo(200);
        assertThat(accounts.findById(child.getId()).orElseThrow().isEnabled()).isFalse();

        assertOk(update(auth, child.getId(), Map.of("fecha_nacimiento", yearsAgo(30))));
        assertThat(consentState(child.getId())).isEqualTo("retirado");
        assertThat(accounts.findById(child.getId()).orElseThrow().isEnabled()).as("an admin enables it, or not").isFalse();
    }

    @Test
    void everyRefusalChangesNothing() {
        String auth = adminBearer();
        UserAccount person = user(Role.USER);
        long id = person.getId();
        assertApiError(update(auth, id, Map.of("rol", "developer_api", "primer_nombre", "Otro", "fecha_nacimiento",
                yearsAgo(12))), 400, TUTOR_MISSING);
        assertApiError(update(auth, id, Map.of("rol", "developer_api", "fecha_nacimiento", yearsAgo(12), "correo_tutor",
                person.getCorreo())), 400, "El correo de su madre, padre o tutor (correo_tutor) no puede ser el de la propia cuenta");
        assertApiError(update(auth, id, Map.of("activo", "false", "fecha_nacimiento", yearsAgo(12), "correo_tutor", "mamá")),
                400, "El correo de su madre, padre o tutor (correo_tutor) no es una dirección válida");
        assertApiError(update(auth, id, Map.of("rol", "developer_api", "fecha_nacimiento",
                birthDates.today().plusDays(1).toString())), 400, "La fecha de nacimiento no puede ser posterior a hoy");
        assertApiError(update(auth, id, Map.of("fecha_nacimiento", "2013-02-30")), 400,
                "Esa fecha no existe: escríbela como AAAA-MM-DD");
        assertApiError(update(auth, id, Map.of("fecha_nacimiento", "30/01/2013")), 400,
                "Esa fecha no existe: escríbela como AAAA-MM-DD");
        assertApiError(update(auth, id, Map.of("fecha_nacimiento", "1899-12-31")), 400,
                "Esa fecha de nacimiento no es posible: escríbela como AAAA-MM-DD");
        assertApiError(update(auth, id, Map.of("fecha_nacimiento", "")), 400,
                "Nada que cambiar: envía rol, activo, primer_nombre o fecha_nacimiento");
        var unchanged = accounts.findById(id).orElseThrow();
        assertThat(unchanged.getRol()).isEqualTo(Role.USER);
        assertThat(unchanged.getPrimerNombre()).isEqualTo("Persona");
        assertThat(unchanged.isEnabled()).isTrue();
        assertThat(birthDates.of(id)).isEmpty();
        assertThat(consentState(id)).isNull();
        assertThat(audited(id)).isZero();
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'ROLE_CHANGED' and subject like ?",
                Long.class, "usuario #" + id + " %")).isZero();

        // a guest has no birth date; an unknown id; a non-admin
        var guest = guests.create("demo-app", guests.unusablePasswordHash());
        assertApiError(update(auth, guest.getId(), Map.of("fecha_nacimiento", yearsAgo(30))), 409,
                "Una cuenta de invitado no tiene fecha de nacimiento: se pide al convertirla desde el juego");
        assertThat(birthDates.of(guest.getId())).isEmpty();
        assertApiError(update(auth, 999_999_999L, Map.of("fecha_nacimiento", yearsAgo(30))), 404, "Usuario no encontrado");
        String developer = "Bearer " + tokens.createPersonal(user(Role.DEVELOPER_API).getId(), "cli", TokenScope.GESTION).value();
        assertApiError(update(developer, id, Map.of("fecha_nacimiento", yearsAgo(30))), 403, "Permiso denegado");
        assertThat(birthDates.of(id)).isEmpty();
    }

    @Test
    void theAdminPagesFormSetsTheDateWithCsrfAndSaysWhatIsMissing() {
        UserAccount admin = user(Role.ADMIN);
        WebClient web = loggedIn(admin);
        UserAccount child = user(Role.USER);
        HttpResponse<String> list = web.get("/dashboard/admin.php?q=" + child.getCorreo());
        assertThat(list.body()).contains("action=\"/dashboard/admin/users/birth-date\"")
                .contains("aria-label=\"Fecha de nacimiento de " + child.getCorreo() + "\"");
        String csrf = WebClient.csrfOf(list.body());
        String form = "/dashboard/admin/users/birth-date";
        assertThat(web.postForm(form, Map.of("id", Long.toString(child.getId()), "fecha_nacimiento", yearsAgo(12)))
                .statusCode()).as("no CSRF token").isEqualTo(403);

        HttpResponse<String> refused = web.postForm(form, Map.of("id", Long.toString(child.getId()), "fecha_nacimiento",
                yearsAgo(12), "correo_tutor", "", "_csrf", csrf));
        assertThat(refused.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(refused)).endsWith("/dashboard/admin.php#users");
        assertThat(web.get("/dashboard/admin.php").body())
                .contains("<p class=\"alert error\" id=\"user-error\">" + TUTOR_MISSING + "</p>");
        assertThat(birthDates.of(child.getId())).isEmpty();

        String tutor = newAddress("abuela");
        HttpResponse<String> saved = web.postForm(form, Map.of("id", Long.toString(child.getId()), "fecha_nacimiento",
                yearsAgo(12), "correo_tutor", tutor, "_csrf", csrf));
        assertThat(WebClient.location(saved)).endsWith("/dashboard/admin.php#users");
        assertThat(web.get("/dashboard/admin.php").body())
                .contains("<p class=\"alert info\" id=\"notice\">Fecha de nacimiento guardada.</p>");
        assertThat(consentState(child.getId())).isEqualTo("pendiente");
        assertThat(mailFor(tutor, 1)).hasSize(1);

        // in English, the refusal in English
        web.get("/dashboard/admin.php?lang=en");
        web.postForm(form, Map.of("id", Long.toString(user(Role.USER).getId()), "fecha_nacimiento", "2013-02-30", "_csrf", csrf));
        assertThat(web.get("/dashboard/admin.php").body())
                .contains("id=\"user-error\">That date does not exist: type it as YYYY-MM-DD</p>");
        var guest = guests.create("demo-app", guests.unusablePasswordHash());
        web.postForm(form, Map.of("id", Long.toString(guest.getId()), "fecha_nacimiento", yearsAgo(30), "_csrf", csrf));
        assertThat(web.get("/dashboard/admin.php").body()).contains("id=\"user-error\">A guest account has no date of birth: "
                + "it is asked when the guest is converted from the game</p>");
    }
}
