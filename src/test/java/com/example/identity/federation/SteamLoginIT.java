package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.sanctions.SanctionService;
import com.example.identity.sanctions.Sanctioner;
import com.example.identity.account.Role;
import com.example.identity.support.Mailbox;
import com.example.identity.support.WebClient;

/**
 * Login with Steam (decisions §19, D38) against an OpenID Authentication 2.0 provider running in the test
 * ({@link FakeSteam}: it signs its answers and answers {@code check_authentication} as the specification says),
 * every step over HTTP as a browser goes between the two: the first login asks for an address and the mailed
 * link (GreenMail) creates the account with Steam linked; the next login logs it in; "Vincular Steam" from
 * {@code /cuenta/seguridad}, then no such button; a tampered claimed_id or signature, a replayed answer or nonce, a
 * foreign {@code op_endpoint} and a cancel all land on the login page with a Spanish notice.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
class SteamLoginIT {

    @RegisterExtension
    static final Mailbox MAIL = new Mailbox(Duration.ofSeconds(5));

    static final int PORT = OtherProvider.freePort();
    static final String BASE = "http://localhost:" + PORT;
    static final Pattern LINK = Pattern.compile("/registro/confirmar\\?token=([A-Za-z0-9_-]{43})");
    static final AtomicLong IDS = new AtomicLong(76561198000000000L + (System.nanoTime() % 1_000_000) * 1000);
    static final HttpClient BROWSER_AT_STEAM = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    static FakeSteam steam;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        steam = new FakeSteam();
        steam.register(registry, PORT);
        MAIL.register(registry);
    }

    @AfterAll
    static void stop() {
        steam.close();
    }

    @Autowired
    AccountService accounts;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    SanctionService sanctions;

    static String pathOf(String location) {
        URI uri = URI.create(location);
        return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    /** From the button's address to Steam: the answer Steam sends the browser back with (a URL of this service). */
    static String toSteamAndBack(WebClient here, String start) throws Exception {
        HttpResponse<String> started = here.get(start);
        assertThat(started.statusCode()).as(started.body()).isEqualTo(302);
        String location = WebClient.location(started);
        assertThat(location).startsWith(steam.endpoint + "?");
        Map<String, String> request = FakeSteam.parse(URI.create(location).getRawQuery());
        assertThat(request.get("openid.ns")).isEqualTo("http://specs.openid.net/auth/2.0");
        assertThat(request.get("openid.mode")).isEqualTo("checkid_setup");
        assertThat(request.get("openid.return_to")).matches(Pattern.quote(BASE + "/login/steam/vuelta?estado=") + "[A-Za-z0-9_-]{43}");
        assertThat(request.get("openid.realm")).isEqualTo(BASE);
        assertThat(request.get("openid.identity")).isEqualTo("http://specs.openid.net/auth/2.0/identifier_select");
        assertThat(request.get("openid.claimed_id")).isEqualTo("http://specs.openid.net/auth/2.0/identifier_select");
        HttpResponse<String> atSteam = BROWSER_AT_STEAM.send(HttpRequest.newBuilder(URI.create(location)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(atSteam.statusCode()).as(atSteam.body()).isEqualTo(302);
        String back = WebClient.location(atSteam);
        assertThat(back).startsWith(request.get("openid.return_to") + "&openid.ns=");
        return back;
    }

    static void refused(HttpResponse<String> answer, WebClient web, String notice, String text) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(302);
        assertThat(WebClient.location(answer)).isEqualTo("/login/?federado=" + notice);
        assertThat(web.get("/login/?federado=" + notice).body()).contains("id=\"federated-error\"").contains(text);
        assertThat(web.get("/cuenta/").statusCode()).as("nobody logged in").isEqualTo(302);
    }

    long linked(String steamId) {
        List<Long> users = jdbc.queryForList("select user_id from linked_identities where provider = 'steam' and subject = ?",
                Long.class, steamId);
        return users.isEmpty() ? -1 : users.get(0);
    }

    String mailedToken(String correo) {
        return Mailbox.link(MAIL.mailFor(correo, 1).get(0), LINK);
    }

    @Test
    void theLoginPageShowsEntrarConSteam() {
        String page = new WebClient(PORT).get("/login/").body();
        assertThat(page).contains("id=\"federated-steam\"").contains(">Entrar con Steam</a>")
                .contains("href=\"/login/federado/steam\"");
    }

    @Test
    void firstLoginAsksForAnAddressTheLinkCreatesTheAccountWithSteamLinkedAndTheNextLoginLogsItIn() throws Exception {
        String steamId = Long.toString(IDS.incrementAndGet());
        steam.nextSteamId = steamId;
        var web = new WebClient(PORT);
        HttpResponse<String> back = web.get(pathOf(toSteamAndBack(web, "/login/federado/steam")));
        assertThat(back.statusCode()).as(back.body()).isEqualTo(302);
        assertThat(WebClient.location(back)).isEqualTo("/registro");
        assertThat(linked(steamId)).as("nothing linked before the address is proved").isEqualTo(-1);

        String form = web.get("/registro").body();
        assertThat(form).contains("id=\"signup-identity\"").contains("Es la primera vez que entras")
                .contains("<strong>Steam</strong>").doesNotContain("name=\"password\"");
        String correo = "steam-" + UUID.randomUUID() + "@example.com";
        HttpResponse<String> sent = web.postForm("/registro", Map.of("correo", correo, "primer_nombre", "Gabe", "fecha_nacimiento", "1990-05-17",
                "_csrf", WebClient.csrfOf(form)), "X-Forwarded-For", "198.51.100." + (1 + (int) (Math.random() * 250)));
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
        assertThat(sent.body()).contains("id=\"signup-sent\"");
        assertThat(accounts.findByEmail(correo)).as("no account before the link is used").isEmpty();

        String token = mailedToken(correo);
        var phone = new WebClient(PORT);
        String confirm = phone.get("/registro/confirmar?token=" + token).body();
        assertThat(confirm).contains("id=\"signup-link-identity\"").contains("<strong>Steam</strong>")
                .contains("<strong>" + steamId + "</strong>");
        HttpResponse<String> created = phone.postForm("/registro/confirmar", Map.of("token", token,
                "_csrf", WebClient.csrfOf(confirm)));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(302);
        assertThat(WebClient.location(created)).isEqualTo("/");
        var account = accounts.findByEmail(correo).orElseThrow();
        assertThat(account.getPrimerNombre()).isEqualTo("Gabe");
        assertThat(account.getRol()).isEqualTo(Role.USER);
        assertThat(account.isEmailVerified()).isTrue();
        assertThat(account.isPasswordSet()).isFalse();
        assertThat(linked(steamId)).isEqualTo(account.getId());

        // the next login with the same SteamID, in another browser: logged in at once
        var later = new WebClient(PORT);
        HttpResponse<String> again = later.get(pathOf(toSteamAndBack(later, "/login/federado/steam")));
        assertThat(again.statusCode()).as(again.body()).isEqualTo(302);
        assertThat(WebClient.location(again)).isEqualTo("/");
        assertThat(later.get("/cuenta/").body()).contains(correo);
        assertThat(jdbc.queryForObject("select count(*) from openid_nonces", Long.class)).isGreaterThanOrEqualTo(2);
    }

    @Test
    void vincularSteamFromTheSecurityPageThenItsButtonIsGone() throws Exception {
        String correo = "vincula-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Lara", correo, "my-password-here-1", Role.USER).getId();
        var web = new WebClient(PORT);
        assertThat(web.login(correo, "my-password-here-1").statusCode()).isEqualTo(302);
        assertThat(web.get("/cuenta/seguridad").body()).contains("id=\"link-steam\"").contains(">Vincular Steam</a>");
        String steamId = Long.toString(IDS.incrementAndGet());
        steam.nextSteamId = steamId;
        HttpResponse<String> done = web.get(pathOf(toSteamAndBack(web, "/login/federado/steam?vincular=1")));
        assertThat(WebClient.location(done)).isEqualTo("/cuenta/seguridad?vinculo=nuevo");
        assertThat(linked(steamId)).isEqualTo(id);
        String page = web.get("/cuenta/seguridad?vinculo=nuevo").body();
        assertThat(page).contains("data-link=\"steam\"").doesNotContain("id=\"link-steam\"");
    }

    /** Decisions §26: a suspended person's Steam login is refused once Steam has answered, with why and until when. */
    @Test
    void aSuspendedPersonsSteamLoginShowsWhyAndUntilWhen() throws Exception {
        String correo = "suspendida-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Lara", correo, "my-password-here-1", Role.USER).getId();
        var web = new WebClient(PORT);
        assertThat(web.login(correo, "my-password-here-1").statusCode()).isEqualTo(302);
        String steamId = Long.toString(IDS.incrementAndGet());
        steam.nextSteamId = steamId;
        assertThat(WebClient.location(web.get(pathOf(toSteamAndBack(web, "/login/federado/steam?vincular=1")))))
                .isEqualTo("/cuenta/seguridad?vinculo=nuevo");
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        var hasta = java.time.Instant.parse("2099-03-01T10:30:00Z");
        sanctions.place(Sanctioner.of(new Caller(admin, true)), id, "Cuentas compartidas", hasta, null);

        steam.nextSteamId = steamId;
        var later = new WebClient(PORT);
        HttpResponse<String> refused = later.get(pathOf(toSteamAndBack(later, "/login/federado/steam")));
        assertThat(WebClient.location(refused)).isEqualTo("/login/?suspendida=1");
        assertThat(later.get("/login/?suspendida=1").body())
                .contains("Tu cuenta está suspendida hasta el 2099-03-01 10:30 UTC.")
                .contains("<strong>Cuentas compartidas</strong>");
        assertThat(later.get("/cuenta/").statusCode()).as("nobody logged in").isEqualTo(302);
    }

    @Test
    void aTamperedClaimedIdOrSignatureIsRefusedByCheckAuthentication() throws Exception {
        steam.nextSteamId = Long.toString(IDS.incrementAndGet());
        var web = new WebClient(PORT);
        String answer = toSteamAndBack(web, "/login/federado/steam");
        String other = Long.toString(IDS.incrementAndGet());
        String tampered = FakeSteam.replace(FakeSteam.replace(answer, "openid.claimed_id", steam.claimedId(other)),
                "openid.identity", steam.claimedId(other));
        int checks = steam.checks;
        refused(web.get(pathOf(tampered)), web, "steam", "Steam no ha confirmado tu identidad");
        assertThat(steam.checks).as("the signature was checked at Steam, and refused").isEqualTo(checks + 1);
        assertThat(linked(other)).isEqualTo(-1);

        var web2 = new WebClient(PORT);
        String answer2 = toSteamAndBack(web2, "/login/federado/steam");
        String sig = FakeSteam.parse(URI.create(answer2).getRawQuery()).get("openid.sig");
        String flipped = (sig.charAt(0) == 'A' ? "B" : "A") + sig.substring(1);
        refused(web2.get(pathOf(FakeSteam.replace(answer2, "openid.sig", flipped))), web2, "steam", "Steam no ha confirmado");
        // a claimed_id of another host is refused before any check
        var web3 = new WebClient(PORT);
        String answer3 = toSteamAndBack(web3, "/login/federado/steam");
        String foreign = "https://steamcommunity.com/openid/id/" + other;
        int before = steam.checks;
        refused(web3.get(pathOf(FakeSteam.replace(FakeSteam.replace(answer3, "openid.claimed_id", foreign),
                "openid.identity", foreign))), web3, "steam", "Steam no ha confirmado");
        assertThat(steam.checks).isEqualTo(before);
    }

    @Test
    void aReplayedAnswerOrNonceIsRefused() throws Exception {
        steam.nextSteamId = Long.toString(IDS.incrementAndGet());
        var web = new WebClient(PORT);
        String answer = toSteamAndBack(web, "/login/federado/steam");
        assertThat(WebClient.location(web.get(pathOf(answer)))).isEqualTo("/registro");
        // the same answer again, in the same browser and in another one: the state was single-use and this session's
        refused(web.get(pathOf(answer)), web, "steam", "Steam no ha confirmado");
        var attacker = new WebClient(PORT);
        refused(attacker.get(pathOf(answer)), attacker, "steam", "Steam no ha confirmado");

        // a provider that repeats a nonce: valid answers, each signed, but the second nonce was already used
        steam.fixedNonce = Instant.now().truncatedTo(ChronoUnit.SECONDS) + "repeat" + UUID.randomUUID();
        try {
            var first = new WebClient(PORT);
            assertThat(WebClient.location(first.get(pathOf(toSteamAndBack(first, "/login/federado/steam")))))
                    .isEqualTo("/registro");
            var second = new WebClient(PORT);
            int checks = steam.checks;
            refused(second.get(pathOf(toSteamAndBack(second, "/login/federado/steam"))), second, "steam",
                    "Steam no ha confirmado");
            assertThat(steam.checks).as("its signature was valid: the nonce refused it").isEqualTo(checks + 1);

            // a nonce older than five minutes
            steam.fixedNonce = Instant.now().minus(Duration.ofMinutes(6)).truncatedTo(ChronoUnit.SECONDS) + "old";
            var late = new WebClient(PORT);
            refused(late.get(pathOf(toSteamAndBack(late, "/login/federado/steam"))), late, "steam", "Steam no ha confirmado");
        }
        finally {
            steam.fixedNonce = null;
        }
    }

    @Test
    void anAnswerNamingAnotherEndpointIsRefused() throws Exception {
        steam.nextSteamId = Long.toString(IDS.incrementAndGet());
        steam.claimedEndpoint = "https://steamcommunity.com/openid/login";
        try {
            var web = new WebClient(PORT);
            int checks = steam.checks;
            refused(web.get(pathOf(toSteamAndBack(web, "/login/federado/steam"))), web, "steam", "Steam no ha confirmado");
            assertThat(steam.checks).as("refused before any check").isEqualTo(checks);
        }
        finally {
            steam.claimedEndpoint = null;
        }
    }

    @Test
    void aCancelAtSteamAndAReturnWithoutLoginLandOnTheLoginPage() throws Exception {
        var web = new WebClient(PORT);
        HttpResponse<String> started = web.get("/login/federado/steam");
        String returnTo = FakeSteam.parse(URI.create(WebClient.location(started)).getRawQuery()).get("openid.return_to");
        refused(web.get(pathOf(returnTo + "&openid.ns=http%3A%2F%2Fspecs.openid.net%2Fauth%2F2.0&openid.mode=cancel")),
                web, "cancelado", "Has cancelado la entrada");
        var nobody = new WebClient(PORT);
        refused(nobody.get("/login/steam/vuelta"), nobody, "steam", "Steam no ha confirmado");
        refused(nobody.get("/login/steam/vuelta?estado=x&openid.mode=id_res&openid.mode=id_res"), nobody, "steam",
                "Steam no ha confirmado");
    }
}
