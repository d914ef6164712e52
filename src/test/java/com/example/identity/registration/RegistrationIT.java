package com.example.identity.registration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.mail.internet.MimeMessage;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.crypto.Secrets;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;
import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;

/**
 * Sign-up (decisions §18) over real HTTP, the mail through a real SMTP server in the test (GreenMail): the same
 * answer for a new and a taken address; the link creates the account (role user, address proved) only when
 * used, once, logs it in and continues the authorization request that led to the sign-up; a taken address is
 * told by mail; requests per client address and mails per target address are limited.
 */
@IntegrationTest
class RegistrationIT {

    @RegisterExtension
    static final GreenMailExtension SMTP = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort())
            .withConfiguration(GreenMailConfiguration.aConfig().withDisabledAuthentication())
            .withPerMethodLifecycle(false);

    @DynamicPropertySource
    static void mail(DynamicPropertyRegistry registry) {
        registry.add("spring.mail.host", () -> "127.0.0.1");
        registry.add("spring.mail.port", () -> SMTP.getSmtp().getPort());
    }

    static final Pattern LINK = Pattern.compile("(https?://[^\\s\"<>]*)/registro/confirmar\\?token=([A-Za-z0-9_-]{43})");
    static final String PASSWORD = "my-own-password-1";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    static String newAddress() {
        return "nueva-" + UUID.randomUUID() + "@example.com";
    }

    static String clientAddress() {
        return "203.0.113." + (1 + (int) (Math.random() * 250));
    }

    HttpResponse<String> signUp(WebClient web, String correo, String nombre, String password, String redirect,
            String from) {
        String page = redirect == null ? "/registro" : "/registro?redirect=" + WebClient.encode(Map.of("r", redirect)).substring(2);
        HttpResponse<String> form = web.get(page);
        assertThat(form.statusCode()).isEqualTo(200);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("correo", correo);
        fields.put("primer_nombre", nombre);
        fields.put("password", password);
        fields.put("_csrf", WebClient.csrfOf(form.body()));
        if (redirect != null) {
            fields.put("redirect", redirect);
        }
        return web.postForm("/registro", fields, "X-Forwarded-For", from);
    }

    static List<MimeMessage> mailFor(String email, int count) {
        try {
            return await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                    .until(() -> List.of(SMTP.getReceivedMessagesForDomain(email)), found -> found.size() >= count);
        }
        catch (ConditionTimeoutException fewer) {
            return List.of(SMTP.getReceivedMessagesForDomain(email));
        }
    }

    static String token(MimeMessage message) {
        Matcher m = LINK.matcher(GreenMailUtil.getBody(message).replace("=\r\n", "").replace("=3D", "="));
        assertThat(m.find()).as(GreenMailUtil.getBody(message)).isTrue();
        return m.group(2);
    }

    /** The answer page with the address typed taken out: what it says about the address must not differ. */
    static String withoutAddress(String body, String correo) {
        return body.replace(correo, "ADDRESS").replaceAll("name=\"_csrf\" value=\"[^\"]*\"", "");
    }

    @Test
    void aNewAddressGetsALinkThatCreatesTheAccountOnceAndLogsItIn() throws Exception {
        String correo = newAddress();
        var web = new WebClient(port);
        HttpResponse<String> sent = signUp(web, correo, "Nuria", PASSWORD, null, clientAddress());

        assertThat(sent.statusCode()).isEqualTo(200);
        assertThat(sent.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(sent.body()).contains("Te hemos enviado un correo a").contains(correo);
        MimeMessage mail = mailFor(correo, 1).get(0);
        assertThat(mail.getSubject()).isEqualTo("Confirma tu cuenta");
        String token = token(mail);
        // nothing exists yet, and only the token's digest is stored
        assertThat(accounts.findByEmail(correo)).isEmpty();
        assertThat(new WebClient(port).login(correo, PASSWORD).headers().firstValue("Location").orElseThrow()).contains("error");
        assertThat(jdbc.queryForObject("select count(*) from pending_registrations where token_digest = ?", Long.class,
                Secrets.sha256Hex(token))).isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from pending_registrations where token_digest = ? or "
                + "password_hash = ?", Long.class, token, PASSWORD)).isZero();

        // the link opened in another browser: a page with a button (a mail scanner's GET creates nothing)
        var phone = new WebClient(port);
        HttpResponse<String> landing = phone.get("/registro/confirmar?token=" + token);
        assertThat(landing.statusCode()).isEqualTo(200);
        assertThat(landing.body()).contains(correo).contains("Crear la cuenta y entrar");
        assertThat(accounts.findByEmail(correo)).isEmpty();
        String anonymousSession = phone.sessionId().orElse("");
        HttpResponse<String> created = phone.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                WebClient.csrfOf(landing.body())));

        assertThat(created.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(created)).endsWith("/");
        assertThat(phone.sessionId()).isPresent().get().isNotEqualTo(anonymousSession);
        var account = accounts.findByEmail(correo).orElseThrow();
        assertThat(account.getRol()).isEqualTo(Role.USER);
        assertThat(account.isEmailVerified()).isTrue();
        assertThat(account.getPrimerNombre()).isEqualTo("Nuria");
        assertThat(account.isPasswordChangeRequired()).isFalse();
        HttpResponse<String> home = phone.get("/cuenta/");
        assertThat(home.statusCode()).isEqualTo(200);
        assertThat(home.body()).contains(correo);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'USER_SIGNED_UP' and actor = ?",
                Long.class, correo)).isEqualTo(1);

        // once: the link is spent
        HttpResponse<String> again = new WebClient(port).get("/registro/confirmar?token=" + token);
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.body()).contains("Este enlace ya no sirve");
        // the password chosen at sign-up logs in
        assertThat(WebClient.location(new WebClient(port).login(correo, PASSWORD))).doesNotContain("error");
    }

    @Test
    void aTakenAddressGetsTheSameAnswerAndItsOwnerIsToldByMail() throws Exception {
        String taken = newAddress();
        accounts.create("Dueña", taken, "the-owners-password", Role.USER);
        String fresh = newAddress();

        HttpResponse<String> forTaken = signUp(new WebClient(port), taken, "Intrusa", PASSWORD, null, clientAddress());
        HttpResponse<String> forFresh = signUp(new WebClient(port), fresh, "Intrusa", PASSWORD, null, clientAddress());

        assertThat(forTaken.statusCode()).isEqualTo(forFresh.statusCode()).isEqualTo(200);
        assertThat(withoutAddress(forTaken.body(), taken)).isEqualTo(withoutAddress(forFresh.body(), fresh));
        MimeMessage notice = mailFor(taken, 1).get(0);
        assertThat(notice.getSubject()).isEqualTo("Alguien ha intentado crear una cuenta con tu correo");
        String text = GreenMailUtil.getBody(notice).replace("=\r\n", "").replace("=3D", "=");
        assertThat(text).contains("http://localhost:8080/login/").contains("http://localhost:8080/login/recuperar")
                .doesNotContain("/registro/confirmar");
        assertThat(jdbc.queryForObject("select count(*) from pending_registrations where correo = ? and token_digest is null "
                + "and password_hash is null", Long.class, taken)).isEqualTo(1);
        assertThat(accounts.findByEmail(taken).orElseThrow().getPrimerNombre()).isEqualTo("Dueña");
    }

    @Test
    void theSignUpThatAnAuthorizationRequestLedToContinuesItAfterTheLink() throws Exception {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Juego", "https://game.example/cb/" + UUID.randomUUID());
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), client.clientId(), true);
        String authorize = "/oauth/authorize.php?" + WebClient.encode(Map.of("response_type", "code", "client_id",
                client.clientId(), "redirect_uri", client.redirectUri(), "scope", "openid email", "state", "s-1"));
        var web = new WebClient(port);
        String toLogin = WebClient.location(web.get(authorize));
        String redirect = UriComponentsBuilder.fromUriString(toLogin).build().getQueryParams().getFirst("redirect");
        redirect = org.springframework.web.util.UriUtils.decode(redirect, java.nio.charset.StandardCharsets.UTF_8);
        HttpResponse<String> loginPage = web.get(toLogin.substring(toLogin.indexOf("/login/")));
        assertThat(loginPage.body()).contains("id=\"sign-up\"").contains("Crear cuenta")
                .contains("href=\"/registro?redirect=");

        String correo = newAddress();
        assertThat(signUp(web, correo, "Gael", PASSWORD, redirect, clientAddress()).statusCode()).isEqualTo(200);
        String token = token(mailFor(correo, 1).get(0));
        HttpResponse<String> landing = web.get("/registro/confirmar?token=" + token);
        assertThat(landing.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("form-action 'self' https://game.example");
        HttpResponse<String> created = web.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                WebClient.csrfOf(landing.body())));

        assertThat(created.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(created)).isEqualTo(redirect);
        HttpResponse<String> code = web.get(redirect);
        assertThat(code.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(code)).startsWith(client.redirectUri() + "?code=").contains("state=s-1");
    }

    @Test
    void aRedirectThatIsNoAuthorizationRequestOfAKnownApplicationIsNotCarried() throws Exception {
        String correo = newAddress();
        var web = new WebClient(port);
        assertThat(signUp(web, correo, "Olga", PASSWORD, "/oauth/authorize.php?client_id=nadie&redirect_uri=https://evil.example",
                clientAddress()).statusCode()).isEqualTo(200);
        String token = token(mailFor(correo, 1).get(0));
        assertThat(jdbc.queryForObject("select continue_to from pending_registrations where token_digest = ?", String.class,
                Secrets.sha256Hex(token))).isNull();
        HttpResponse<String> landing = web.get("/registro/confirmar?token=" + token);
        HttpResponse<String> created = web.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                WebClient.csrfOf(landing.body())));
        assertThat(WebClient.location(created)).isEqualTo("/");
    }

    @Test
    void eachFieldIsCheckedWithTheRulesOfEveryAccount() {
        var web = new WebClient(port);
        HttpResponse<String> badAddress = signUp(web, "no es un correo", "Ana", PASSWORD, null, clientAddress());
        assertThat(badAddress.statusCode()).isEqualTo(400);
        assertThat(badAddress.body()).contains("Escribe una dirección de correo válida");
        HttpResponse<String> shortPassword = signUp(web, newAddress(), "Ana", "corta", null, clientAddress());
        assertThat(shortPassword.statusCode()).isEqualTo(400);
        assertThat(shortPassword.body()).contains("La contraseña debe tener al menos 12 caracteres");
        HttpResponse<String> noName = signUp(web, newAddress(), "   ", PASSWORD, null, clientAddress());
        assertThat(noName.statusCode()).isEqualTo(400);
        assertThat(noName.body()).contains("Falta el nombre");
        HttpResponse<String> noCsrf = new WebClient(port).postForm("/registro", Map.of("correo", newAddress(),
                "primer_nombre", "Ana", "password", PASSWORD));
        assertThat(noCsrf.statusCode()).isEqualTo(403);
    }

    @Test
    void anAddressIsSentThreeMailsAnHourAndAClientAddressMaySignUpFiveTimesIn15Minutes() throws Exception {
        String correo = newAddress();
        for (int i = 0; i < 4; i++) {
            assertThat(signUp(new WebClient(port), correo, "Rita", PASSWORD, null, clientAddress()).statusCode()).isEqualTo(200);
        }
        assertThat(mailFor(correo, 4)).as("a 4th would be there within the 5 s it waits").hasSize(3);

        String from = "198.51.100." + (1 + (int) (Math.random() * 250));
        for (int i = 0; i < 5; i++) {
            assertThat(signUp(new WebClient(port), newAddress(), "Rita", PASSWORD, null, from).statusCode()).isEqualTo(200);
        }
        HttpResponse<String> blocked = signUp(new WebClient(port), newAddress(), "Rita", PASSWORD, null, from);
        assertThat(blocked.statusCode()).isEqualTo(429);
        assertThat(blocked.headers().firstValue("Retry-After")).hasValueSatisfying(
                v -> assertThat(Long.parseLong(v)).isBetween(1L, 900L));
        assertThat(blocked.body()).contains("Demasiadas solicitudes desde tu conexión.");
    }

    @Test
    void aLinkThatIsUnknownMalformedOrExpiredCreatesNothing() {
        assertThat(new WebClient(port).get("/registro/confirmar?token=not-a-token").statusCode()).isEqualTo(400);
        String unknown = Secrets.randomUrlSafe(32);
        var web = new WebClient(port);
        HttpResponse<String> page = web.get("/registro/confirmar?token=" + unknown);
        assertThat(page.statusCode()).isEqualTo(400);
        HttpResponse<String> post = web.postForm("/registro/confirmar", Map.of("token", unknown, "_csrf",
                web.csrfFrom("/registro")));
        assertThat(post.statusCode()).isEqualTo(400);
        assertThat(post.body()).contains("Este enlace ya no sirve");

        String expired = Secrets.randomUrlSafe(32);
        jdbc.update("insert into pending_registrations (correo, primer_nombre, password_hash, token_digest, created_at, "
                + "expires_at) values (?, 'Eva', 'x', ?, current_timestamp, current_timestamp)", newAddress(),
                Secrets.sha256Hex(expired));
        assertThat(new WebClient(port).get("/registro/confirmar?token=" + expired).statusCode()).isEqualTo(400);
    }
}
