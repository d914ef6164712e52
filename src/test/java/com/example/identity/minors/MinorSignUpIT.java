package com.example.identity.minors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

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
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.common.Purge;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.Mailbox;
import com.example.identity.support.MovableClock;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Minors (decisions §27) over real HTTP, every mail through GreenMail: the form refuses a birth date that is no day,
 * is after today or is missing, saying so at the field; a confirmed account keeps its date; accounts made otherwise
 * have none and are adults. Under the consent age the form asks the parent's address; the child's link makes the
 * account, which logs in and sees its pages while every application's authorization request ends with
 * {@code access_denied}; the parent's link allows (applications served), refuses (the account deleted) or, from the
 * confirmation mail, withdraws (the account disabled); 7 days of silence delete it (the retention job's purge on a
 * moved clock).
 */
@IntegrationTest
class MinorSignUpIT {

    @RegisterExtension
    static final Mailbox MAIL = new Mailbox(Duration.ofSeconds(10));

    @DynamicPropertySource
    static void mail(DynamicPropertyRegistry registry) {
        MAIL.register(registry);
    }

    static final Pattern SIGN_UP_LINK = Pattern.compile("https?://[^\\s\"<>]*/registro/confirmar\\?token=([A-Za-z0-9_-]{43})");
    static final String PASSWORD = "a-childs-password-1";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    BirthDates birthDates;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ClientService clients;

    @Autowired
    MovableClock clock;

    @Autowired
    List<Purge> purges;

    static String newAddress(String who) {
        return who + "-" + UUID.randomUUID() + "@example.com";
    }

    static String clientAddress() {
        return "198.51.100." + (1 + (int) (Math.random() * 250));
    }

    /** The sign-up form sent with {@code extra} fields (the birth date, the parent's address); its answer. */
    HttpResponse<String> signUp(WebClient web, String correo, Map<String, String> extra) {
        HttpResponse<String> form = web.get("/registro");
        assertThat(form.statusCode()).isEqualTo(200);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("correo", correo);
        fields.put("primer_nombre", "Leo");
        fields.put("password", PASSWORD);
        fields.putAll(extra);
        fields.put("_csrf", WebClient.csrfOf(form.body()));
        return web.postForm("/registro", fields, "X-Forwarded-For", clientAddress());
    }

    /** The child's own link used: the account exists and this browser is logged in to it. */
    WebClient confirm(String correo) {
        String token = Mailbox.link(MAIL.mailFor(correo, 1).get(0), SIGN_UP_LINK);
        var web = new WebClient(port);
        HttpResponse<String> landing = web.get("/registro/confirmar?token=" + token);
        assertThat(landing.statusCode()).isEqualTo(200);
        HttpResponse<String> created = web.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                WebClient.csrfOf(landing.body())));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(302);
        return web;
    }

    LocalDate yearsAgo(int years) {
        return birthDates.today().minusYears(years);
    }

    @Test
    void aDateThatIsNoDayIsAfterTodayOrIsMissingIsRefusedAtTheFieldAndNothingIsSent() {
        var web = new WebClient(port);
        record Case(String typed, String message) {
        }
        for (Case c : List.of(new Case("2013-02-30", "Esa fecha no existe: escríbela como AAAA-MM-DD"),
                new Case(birthDates.today().plusDays(1).toString(), "La fecha de nacimiento no puede ser posterior a hoy"),
                new Case("1850-01-01", "Esa fecha de nacimiento no es posible: escríbela como AAAA-MM-DD"),
                new Case("", "Escribe tu fecha de nacimiento"))) {
            String correo = newAddress("fecha");
            HttpResponse<String> refused = signUp(web, correo, Map.of("fecha_nacimiento", c.typed()));
            assertThat(refused.statusCode()).as(c.typed()).isEqualTo(400);
            assertThat(refused.body()).as(c.typed())
                    .contains("<p class=\"field-error\" id=\"fecha_nacimiento-error\">" + c.message() + "</p>")
                    .contains("value=\"" + c.typed() + "\"").contains("value=\"" + correo + "\"");
            assertThat(jdbc.queryForObject("select count(*) from pending_registrations where correo = ?", Long.class, correo))
                    .isZero();
        }
        // in English, the same refusal in English
        HttpResponse<String> english = new WebClient(port).get("/registro?lang=en");
        var en = new WebClient(port);
        String csrf = WebClient.csrfOf(en.get("/registro?lang=en").body());
        HttpResponse<String> refused = en.postForm("/registro", Map.of("correo", newAddress("fecha"), "primer_nombre", "Leo",
                "password", PASSWORD, "fecha_nacimiento", "2013-02-30", "_csrf", csrf), "X-Forwarded-For", clientAddress());
        assertThat(english.body()).contains("Date of birth").contains("Anyone under 14 also needs the permission of a parent or guardian.");
        assertThat(refused.body()).contains("id=\"fecha_nacimiento-error\">That date does not exist: type it as YYYY-MM-DD</p>");
    }

    @Test
    void anAdultsConfirmedAccountKeepsItsBirthDateAndAccountsMadeOtherwiseHaveNone() {
        String correo = newAddress("adulta");
        LocalDate birth = yearsAgo(30).minusDays(40);
        HttpResponse<String> sent = signUp(new WebClient(port), correo, Map.of("fecha_nacimiento", birth.toString()));
        assertThat(sent.statusCode()).isEqualTo(200);
        assertThat(sent.body()).contains("id=\"signup-sent\"");
        WebClient web = confirm(correo);
        long id = accounts.findByEmail(correo).orElseThrow().getId();
        assertThat(birthDates.of(id)).hasValue(birth);
        assertThat(web.get("/cuenta/").statusCode()).isEqualTo(200);

        // an admin's account (and the demo ones, the import's) have no birth date: adults
        long made = accounts.create("Hecha", newAddress("admin-hecha"), "an-admins-password-1", Role.USER).getId();
        assertThat(birthDates.of(made)).isEmpty();
        assertThat(birthDates.isMinor(birthDates.of(made).orElse(null))).isFalse();
    }

    static final Pattern CONSENT_LINK = Pattern.compile("https?://[^\\s\"<>]*/tutor/consentir\\?token=([A-Za-z0-9_-]{43})");
    static final String ALLOW_BUTTON = "<button name=\"decision\" value=\"allow\">Autorizar</button>";
    static final String DENY_BUTTON = "<button name=\"decision\" value=\"deny\">Rechazar</button>";

    /** A child of {@code years} (and a few months) signed up with a parent's address and confirmed their own link. */
    record Child(String correo, String tutor, long id, WebClient browser) {
    }

    Child childOf(int years) {
        String correo = newAddress("nino");
        String tutor = newAddress("madre");
        HttpResponse<String> sent = signUp(new WebClient(port), correo,
                Map.of("fecha_nacimiento", yearsAgo(years).minusMonths(2).toString(), "correo_tutor", tutor));
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
        WebClient browser = confirm(correo);
        return new Child(correo, tutor, accounts.findByEmail(correo).orElseThrow().getId(), browser);
    }

    ClientService.NewCredentials firstPartyApplication() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Juego", "https://game.example/cb/" + UUID.randomUUID());
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), client.clientId(), true);
        return client;
    }

    /** The application's authorization request in the child's session: where the browser is sent. */
    static String authorize(WebClient browser, ClientService.NewCredentials client) {
        HttpResponse<String> answer = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of("response_type", "code",
                "client_id", client.clientId(), "redirect_uri", client.redirectUri(), "scope", "openid profile", "state", "s-9")));
        assertThat(answer.statusCode()).isEqualTo(302);
        return WebClient.location(answer);
    }

    long audited(String event, long userId) {
        return jdbc.queryForObject("select count(*) from audit_events where event = ? and subject like ?", Long.class, event,
                "usuario #" + userId + " %");
    }

    @Test
    void underTheConsentAgeTheFormAsksTheParentsAddressAndNotTheChildsOwn() {
        var web = new WebClient(port);
        String correo = newAddress("nina");
        String twelve = yearsAgo(12).toString();
        HttpResponse<String> asked = signUp(web, correo, Map.of("fecha_nacimiento", twelve));
        assertThat(asked.statusCode()).isEqualTo(400);
        assertThat(asked.body()).contains("id=\"correo_tutor\" name=\"correo_tutor\"")
                .contains("<p class=\"field-error\" id=\"correo_tutor-error\">Como tienes menos de 14 años, escribe el "
                        + "correo de tu madre, padre o tutor: le pediremos permiso</p>");
        HttpResponse<String> own = signUp(web, correo, Map.of("fecha_nacimiento", twelve, "correo_tutor", correo.toUpperCase()));
        assertThat(own.statusCode()).isEqualTo(400);
        assertThat(own.body()).contains("id=\"correo_tutor-error\">Escribe el correo de tu madre, padre o tutor, no el tuyo</p>");
        HttpResponse<String> bad = signUp(web, correo, Map.of("fecha_nacimiento", twelve, "correo_tutor", "mamá"));
        assertThat(bad.body()).contains("id=\"correo_tutor-error\">Escribe una dirección de correo válida</p>");
        assertThat(jdbc.queryForObject("select count(*) from pending_registrations where correo = ?", Long.class, correo))
                .isZero();
        // an adult's form never asks it, and what was typed there is not kept
        String adult = newAddress("adulto");
        assertThat(signUp(web, adult, Map.of("fecha_nacimiento", yearsAgo(16).toString(), "correo_tutor", "x@example.com"))
                .statusCode()).isEqualTo(200);
        // the sign-up's row is written on the background thread that mails it
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> jdbc.queryForObject(
                "select count(*) from pending_registrations where correo = ?", Long.class, adult) == 1);
        assertThat(jdbc.queryForObject("select correo_tutor from pending_registrations where correo = ?", String.class, adult))
                .isNull();
    }

    @Test
    void fourteenTodaySixteenAndThirtyNeedNoConsentAndApplicationsServeThemAtOnce() {
        var application = firstPartyApplication();
        for (LocalDate birth : List.of(yearsAgo(14), yearsAgo(16), yearsAgo(30))) {
            String correo = newAddress("joven");
            assertThat(signUp(new WebClient(port), correo, Map.of("fecha_nacimiento", birth.toString())).statusCode())
                    .as(birth.toString()).isEqualTo(200);
            WebClient browser = confirm(correo);
            long id = accounts.findByEmail(correo).orElseThrow().getId();
            assertThat(jdbc.queryForObject("select count(*) from parental_consents where user_id = ?", Long.class, id)).isZero();
            assertThat(authorize(browser, application)).as(birth.toString()).startsWith(application.redirectUri() + "?code=");
        }
    }

    @Test
    void aTwelveYearOldWaitsForTheParentWhoAllowsThenWithdraws() throws Exception {
        var application = firstPartyApplication();
        Child child = childOf(12);
        // the account exists, pending; the child logs in and sees their pages
        assertThat(jdbc.queryForObject("select estado from parental_consents where user_id = ?", String.class, child.id()))
                .isEqualTo("pendiente");
        HttpResponse<String> own = child.browser().get("/cuenta/");
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(own.body()).contains("id=\"awaiting-parental-consent\"").contains("<strong>" + child.tutor() + "</strong>");
        // a console's code waits: /activar decides nothing
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var console = clients.register(owner, "Consola", null, List.of(), com.example.identity.client.ClientType.DEVICE);
        String userCode = JSON.readTree(new WebClient(port).postForm("/oauth/device.php", Map.of("client_id",
                console.clientId())).body()).get("user_code").asString();
        HttpResponse<String> approval = child.browser().postForm("/activar", Map.of("user_code", userCode, "decision", "allow",
                "_csrf", child.browser().csrfFrom("/activar")));
        assertThat(approval.statusCode()).isEqualTo(403);
        assertThat(approval.body()).contains("Tu cuenta espera el permiso de tu madre, padre o tutor: hasta entonces no puedes "
                + "autorizar dispositivos.");
        // every application's request ends with access_denied
        String refused = authorize(child.browser(), application);
        assertThat(refused).isEqualTo(application.redirectUri() + "?error=access_denied&error_description="
                + "La%20cuenta%20espera%20el%20consentimiento%20de%20su%20madre%2C%20padre%20o%20tutor&state=s-9");

        // the parent's mail, written for someone who never heard of the service
        MimeMessage request = MAIL.mailFor(child.tutor(), 1).get(0);
        assertThat(request.getSubject()).isEqualTo("¿Das permiso a Leo para tener una cuenta?");
        assertThat(Mailbox.text(request)).contains("Alguien que se ha presentado como «Leo», con la dirección " + child.correo())
                .contains("tiene menos de 14 años").contains("LOPDGDD").contains("7 días");
        String token = Mailbox.link(request, CONSENT_LINK);
        var parent = new WebClient(port);
        HttpResponse<String> page = parent.get("/tutor/consentir?token=" + token);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(page.body()).contains("«Leo» (" + child.correo() + ") ha creado una cuenta en el servicio de identidad")
                .contains(ALLOW_BUTTON).contains(DENY_BUTTON);
        assertThat(accounts.findById(child.id())).isPresent();
        HttpResponse<String> allowed = parent.postForm("/tutor/consentir", Map.of("token", token, "decision", "allow",
                "_csrf", WebClient.csrfOf(page.body())));
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.body()).contains("id=\"tutor-allowed\"").contains("la cuenta de «Leo» ya puede usarse");
        assertThat(audited("PARENTAL_CONSENT_GIVEN", child.id())).isEqualTo(1);
        // served now, with the same session
        assertThat(authorize(child.browser(), application)).startsWith(application.redirectUri() + "?code=");
        assertThat(child.browser().get("/cuenta/").body()).doesNotContain("awaiting-parental-consent");
        // the request's link is spent
        assertThat(parent.get("/tutor/consentir?token=" + token).statusCode()).isEqualTo(400);

        // the confirmation mail's link withdraws it: the account is disabled
        MimeMessage granted = MAIL.mailFor(child.tutor(), 2).get(1);
        assertThat(granted.getSubject()).isEqualTo("Has autorizado la cuenta de Leo");
        String withdrawal = Mailbox.link(granted, CONSENT_LINK);
        HttpResponse<String> withdrawPage = parent.get("/tutor/consentir?token=" + withdrawal);
        assertThat(withdrawPage.statusCode()).isEqualTo(200);
        assertThat(withdrawPage.body()).contains("<button name=\"decision\" value=\"withdraw\">Retirar el permiso</button>")
                .doesNotContain(ALLOW_BUTTON);
        // the withdrawal link allows nothing
        assertThat(parent.postForm("/tutor/consentir", Map.of("token", withdrawal, "decision", "allow", "_csrf",
                WebClient.csrfOf(withdrawPage.body()))).statusCode()).isEqualTo(400);
        HttpResponse<String> withdrawn = parent.postForm("/tutor/consentir", Map.of("token", withdrawal, "decision", "withdraw",
                "_csrf", WebClient.csrfOf(withdrawPage.body())));
        assertThat(withdrawn.statusCode()).isEqualTo(200);
        assertThat(withdrawn.body()).contains("id=\"tutor-withdrawn\"");
        assertThat(accounts.findById(child.id()).orElseThrow().isEnabled()).isFalse();
        assertThat(audited("PARENTAL_CONSENT_WITHDRAWN", child.id())).isEqualTo(1);
        assertThat(child.browser().get("/cuenta/").statusCode()).as("the session ended").isEqualTo(302);
        assertThat(parent.get("/tutor/consentir?token=" + withdrawal).statusCode()).isEqualTo(400);
    }

    @Test
    void theParentsRefusalDeletesTheAccount() {
        Child child = childOf(12);
        String token = Mailbox.link(MAIL.mailFor(child.tutor(), 1).get(0), CONSENT_LINK);
        var parent = new WebClient(port);
        HttpResponse<String> page = parent.get("/tutor/consentir?token=" + token);
        HttpResponse<String> denied = parent.postForm("/tutor/consentir", Map.of("token", token, "decision", "deny",
                "_csrf", WebClient.csrfOf(page.body())));
        assertThat(denied.statusCode()).isEqualTo(200);
        assertThat(denied.body()).contains("id=\"tutor-denied\"").contains("la cuenta de «Leo» se ha eliminado");
        assertThat(accounts.findById(child.id())).isEmpty();
        assertThat(jdbc.queryForObject("select count(*) from deleted_users where id = ?", Long.class, child.id())).isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'USER_DELETED' and subject = ?",
                Long.class, "usuario #" + child.id() + " (consentimiento parental rechazado)")).isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'PARENTAL_CONSENT_REFUSED' and "
                + "subject = ?", Long.class, "usuario #" + child.id())).isEqualTo(1);
        assertThat(parent.postForm("/tutor/consentir", Map.of("token", token, "decision", "allow", "_csrf",
                WebClient.csrfOf(page.body()))).statusCode()).isEqualTo(400);
    }

    @Test
    void sevenDaysOfSilenceDeleteTheAccountThroughTheRetentionJobsPurge() {
        Child waiting = childOf(12);
        Child answered = childOf(13);
        String token = Mailbox.link(MAIL.mailFor(answered.tutor(), 1).get(0), CONSENT_LINK);
        var parent = new WebClient(port);
        HttpResponse<String> page = parent.get("/tutor/consentir?token=" + token);
        parent.postForm("/tutor/consentir", Map.of("token", token, "decision", "allow", "_csrf", WebClient.csrfOf(page.body())));
        Purge unanswered = purges.stream().filter(p -> p.kind() == Purge.Kind.UNANSWERED_CONSENTS).findFirst().orElseThrow();

        clock.advance(Duration.ofDays(7).minusMinutes(1));
        unanswered.purge(clock.instant(), clock.instant());
        assertThat(accounts.findById(waiting.id())).as("a minute before the 7 days").isPresent();
        clock.advance(Duration.ofMinutes(1));
        assertThat(unanswered.purge(clock.instant(), clock.instant())).isGreaterThanOrEqualTo(1);
        assertThat(accounts.findById(waiting.id())).isEmpty();
        assertThat(accounts.findById(answered.id())).as("allowed in time").isPresent();
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'USER_DELETED' and subject = ?",
                Long.class, "usuario #" + waiting.id() + " (sin consentimiento parental)")).isEqualTo(1);
        // the parent's link no longer works
        assertThat(parent.get("/tutor/consentir?token=" + Mailbox.link(MAIL.mailFor(waiting.tutor(), 1).get(0), CONSENT_LINK))
                .statusCode()).isEqualTo(400);
    }

    @Test
    void theParentsMailIsInThePagesLanguageAndAParentsAddressGetsThreeAnHour() throws Exception {
        String tutor = newAddress("parent");
        var en = new WebClient(port);
        String correo = newAddress("child");
        String csrf = WebClient.csrfOf(en.get("/registro?lang=en").body());
        assertThat(en.postForm("/registro", Map.of("correo", correo, "primer_nombre", "Kim", "password", PASSWORD,
                "fecha_nacimiento", yearsAgo(11).toString(), "correo_tutor", tutor, "_csrf", csrf), "X-Forwarded-For",
                clientAddress()).statusCode()).isEqualTo(200);
        String token = Mailbox.link(MAIL.mailFor(correo, 1).get(0), SIGN_UP_LINK);
        HttpResponse<String> landing = en.get("/registro/confirmar?token=" + token);
        assertThat(en.postForm("/registro/confirmar", Map.of("token", token, "_csrf", WebClient.csrfOf(landing.body())))
                .statusCode()).isEqualTo(302);
        MimeMessage request = MAIL.mailFor(tutor, 1).get(0);
        assertThat(request.getSubject()).isEqualTo("Do you allow Kim to have an account?");
        assertThat(Mailbox.text(request)).contains("Someone who gave the name «Kim» and the address " + correo)
                .contains("they are under 14").contains("Spanish law");
        // three more children give the same parent's address within the hour: the fourth request mails nothing
        WebClient fourth = null;
        String fourthAddress = null;
        for (int i = 0; i < 3; i++) {
            fourthAddress = newAddress("sibling");
            assertThat(signUp(new WebClient(port), fourthAddress, Map.of("fecha_nacimiento", yearsAgo(9).toString(),
                    "correo_tutor", tutor)).statusCode()).isEqualTo(200);
            fourth = confirm(fourthAddress);
        }
        assertThat(MAIL.mailFor(tutor, 4)).hasSize(3);
        assertThat(jdbc.queryForObject("select count(*) from parental_consents where correo_tutor = ?", Long.class, tutor))
                .isEqualTo(4);

        // the fourth child's parent was not mailed: the account page asks again, at most once an hour
        HttpResponse<String> home = fourth.get("/cuenta/");
        assertThat(home.body()).contains("id=\"parental-mail-resend\"").doesNotContain("id=\"parental-mail-wait\"");
        String csrf4 = WebClient.csrfOf(home.body());
        assertThat(fourth.postForm("/cuenta/tutor/reenviar", Map.of()).statusCode()).as("no CSRF token").isEqualTo(403);
        HttpResponse<String> early = fourth.postForm("/cuenta/tutor/reenviar", Map.of("_csrf", csrf4));
        assertThat(early.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(early)).endsWith("/cuenta/?tutor=espera");
        assertThat(fourth.get("/cuenta/?tutor=espera").body()).contains("id=\"parental-mail-wait\"")
                .contains("Aún no podemos enviarlo de nuevo");
        assertThat(MAIL.mailFor(tutor, 4)).as("nothing mailed within the hour").hasSize(3);

        clock.advance(Duration.ofMinutes(61));
        HttpResponse<String> later = fourth.postForm("/cuenta/tutor/reenviar", Map.of("_csrf", csrf4));
        assertThat(WebClient.location(later)).endsWith("/cuenta/?tutor=reenviado");
        assertThat(fourth.get("/cuenta/?tutor=reenviado").body()).contains("id=\"parental-mail-resent\"");
        List<MimeMessage> mails = MAIL.mailFor(tutor, 4);
        assertThat(mails).hasSize(4);
        String resent = Mailbox.link(mails.get(3), CONSENT_LINK);
        HttpResponse<String> parentsPage = new WebClient(port).get("/tutor/consentir?token=" + resent);
        assertThat(parentsPage.statusCode()).isEqualTo(200);
        assertThat(parentsPage.body()).contains(fourthAddress);
        assertThat(WebClient.location(fourth.postForm("/cuenta/tutor/reenviar", Map.of("_csrf", csrf4))))
                .as("again at once").endsWith("/cuenta/?tutor=espera");
        assertThat(MAIL.mailFor(tutor, 5)).hasSize(4);
    }

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** The application's tokens for the person in {@code browser} (scope {@code scope}): the token answer. */
    JsonNode tokens(WebClient browser, ClientService.NewCredentials client, String scope) {
        HttpResponse<String> answer = browser.get("/oauth/authorize.php?" + WebClient.encode(Map.of("response_type", "code",
                "client_id", client.clientId(), "redirect_uri", client.redirectUri(), "scope", scope, "state", "s-1")));
        String code = org.springframework.web.util.UriComponentsBuilder.fromUriString(WebClient.location(answer)).build()
                .getQueryParams().getFirst("code");
        assertThat(code).as(WebClient.location(answer)).isNotNull();
        HttpResponse<String> exchanged = new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(client, code));
        assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(200);
        return JSON.readTree(exchanged.body());
    }

    static JsonNode idTokenClaims(JsonNode tokens) {
        String payload = tokens.get("id_token").asString().split("\\.")[1];
        return JSON.readTree(new String(java.util.Base64.getUrlDecoder().decode(payload), java.nio.charset.StandardCharsets.UTF_8));
    }

    JsonNode userInfo(JsonNode tokens) {
        HttpResponse<String> answer = new WebClient(port).get("/oauth/userinfo.php", "Authorization",
                "Bearer " + tokens.get("access_token").asString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return JSON.readTree(answer.body());
    }

    void allow(Child child) {
        String token = Mailbox.link(MAIL.mailFor(child.tutor(), 1).get(0), CONSENT_LINK);
        var parent = new WebClient(port);
        HttpResponse<String> page = parent.get("/tutor/consentir?token=" + token);
        assertThat(parent.postForm("/tutor/consentir", Map.of("token", token, "decision", "allow", "_csrf",
                WebClient.csrfOf(page.body()))).statusCode()).isEqualTo(200);
    }

    @Test
    void applicationsSeeMenorAndTheConsentStateWithProfileNeverTheBirthDateWhichTheDownloadShows() {
        var application = firstPartyApplication();
        Child twelve = childOf(12);
        allow(twelve);
        JsonNode tokens = tokens(twelve.browser(), application, "openid profile");
        for (JsonNode claims : List.of(idTokenClaims(tokens), userInfo(tokens))) {
            assertThat(claims.get("menor").asBoolean()).isTrue();
            assertThat(claims.get("consentimiento_parental").asString()).isEqualTo("concedido");
            assertThat(claims.toString()).doesNotContain("fecha_nacimiento").doesNotContain("birthdate")
                    .doesNotContain(yearsAgo(12).minusMonths(2).toString());
        }
        // without profile, neither
        JsonNode openidOnly = tokens(twelve.browser(), application, "openid");
        assertThat(idTokenClaims(openidOnly).has("menor")).isFalse();
        assertThat(userInfo(openidOnly).has("consentimiento_parental")).isFalse();

        // 16: a minor over the consent age; 30: an adult
        String sixteen = newAddress("dieciseis");
        signUp(new WebClient(port), sixteen, Map.of("fecha_nacimiento", yearsAgo(16).toString()));
        JsonNode teen = tokens(confirm(sixteen), application, "openid profile");
        assertThat(idTokenClaims(teen).get("menor").asBoolean()).isTrue();
        assertThat(idTokenClaims(teen).has("consentimiento_parental")).isFalse();
        assertThat(userInfo(teen).get("menor").asBoolean()).isTrue();
        String thirty = newAddress("treinta");
        signUp(new WebClient(port), thirty, Map.of("fecha_nacimiento", yearsAgo(30).toString()));
        JsonNode adult = tokens(confirm(thirty), application, "openid profile");
        assertThat(idTokenClaims(adult).get("menor").asBoolean()).isFalse();
        assertThat(userInfo(adult).has("consentimiento_parental")).isFalse();

        // the person's own download shows the birth date and the consent
        JsonNode data = JSON.readTree(twelve.browser().get("/cuenta/datos").body());
        assertThat(data.get("fecha_nacimiento").asString()).isEqualTo(yearsAgo(12).minusMonths(2).toString());
        assertThat(data.get("consentimiento_parental").get("estado").asString()).isEqualTo("concedido");
        assertThat(data.get("consentimiento_parental").get("correo_tutor").asString()).isEqualTo(twelve.tutor());
        assertThat(data.get("consentimiento_parental").get("respondido").isNull()).isFalse();
    }
}
