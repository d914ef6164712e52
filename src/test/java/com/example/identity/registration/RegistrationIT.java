package com.example.identity.registration;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import jakarta.mail.internet.MimeMessage;

import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
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
import com.example.identity.support.Mailbox;
import com.example.identity.support.WebClient;

/**
 * Sign-up (decisions §18) over real HTTP, the mail through a real SMTP server in the test (GreenMail): the same
 * answer for a new and a taken address; the link creates the account (role user, address proved) only when
 * used, once, logs it in and continues the authorization request that led to the sign-up; a taken address is
 * told by mail; requests per client address and mails per target address are limited.
 */
@IntegrationTest
class RegistrationIT {

    @RegisterExtension
    static final Mailbox MAIL = new Mailbox(Duration.ofSeconds(5));

    @DynamicPropertySource
    static void mail(DynamicPropertyRegistry registry) {
        MAIL.register(registry);
    }

    /**
     * Holds each account creation of a confirmed sign-up until the other armed one has reached its own (10 s at
     * most): two links of one address used at once then both find the address free before either commits, which
     * is the race of issue 39 played every time rather than hoped for.
     */
    static volatile CyclicBarrier creations;

    @TestConfiguration(proxyBeanMethods = false)
    static class SimultaneousCreations {

        @Bean
        static BeanPostProcessor holdSignedUpCreations() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    if (bean instanceof AccountService && bean instanceof Advised advised && !advised.isFrozen()) {
                        advised.addAdvice(0, (MethodInterceptor) invocation -> {
                            CyclicBarrier armed = creations;
                            if (armed != null && invocation.getMethod().getName().equals("createSignedUp")) {
                                try {
                                    armed.await(10, TimeUnit.SECONDS);
                                }
                                catch (BrokenBarrierException | TimeoutException alone) {
                                    // the other never came: go on alone
                                }
                            }
                            return invocation.proceed();
                        });
                    }
                    return bean;
                }
            };
        }
    }

    static final Pattern LINK = Pattern.compile("https?://[^\\s\"<>]*/registro/confirmar\\?token=([A-Za-z0-9_-]{43})");
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
        fields.put("fecha_nacimiento", "1990-05-17");
        fields.put("password", password);
        fields.put("_csrf", WebClient.csrfOf(form.body()));
        if (redirect != null) {
            fields.put("redirect", redirect);
        }
        return web.postForm("/registro", fields, "X-Forwarded-For", from);
    }

    /** The sign-up link's token in the mail. */
    static String token(MimeMessage message) {
        return Mailbox.link(message, LINK);
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
        MimeMessage mail = MAIL.mailFor(correo, 1).get(0);
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
        MimeMessage notice = MAIL.mailFor(taken, 1).get(0);
        assertThat(notice.getSubject()).isEqualTo("Alguien ha intentado crear una cuenta con tu correo");
        String text = Mailbox.text(notice) + Mailbox.html(notice);
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
        String token = token(MAIL.mailFor(correo, 1).get(0));
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
        String token = token(MAIL.mailFor(correo, 1).get(0));
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
        assertThat(MAIL.mailFor(correo, 4)).as("a 4th would be there within the 5 s it waits").hasSize(3);

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
        HttpResponse<String> malformed = new WebClient(port).get("/registro/confirmar?token=not-a-token");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.body()).as("a broken link is not called used").contains("Este enlace está incompleto o mal copiado")
                .doesNotContain("Este enlace ya no sirve");
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

    /** The confirmation form of {@code token} in {@code web}: its page (for the CSRF token), then the POST. */
    static HttpResponse<String> confirm(WebClient web, String token, Map<String, String> more) {
        HttpResponse<String> landing = web.get("/registro/confirmar?token=" + token);
        assertThat(landing.statusCode()).isEqualTo(200);
        Map<String, String> form = new LinkedHashMap<>(more);
        form.put("token", token);
        form.put("_csrf", WebClient.csrfOf(landing.body()));
        return web.postForm("/registro/confirmar", form);
    }

    @Test
    void twoLinksOfOneAddressUsedAtOnceMakeOneAccountAndTheTakenAddressAnswerForTheOther() throws Exception {
        String correo = newAddress();
        assertThat(signUp(new WebClient(port), correo, "Uno", PASSWORD, null, clientAddress()).statusCode()).isEqualTo(200);
        assertThat(signUp(new WebClient(port), correo, "Dos", "other-password-22", null, clientAddress()).statusCode())
                .isEqualTo(200);
        List<MimeMessage> mails = MAIL.mailFor(correo, 2);
        assertThat(mails).hasSize(2);
        List<String> tokens = mails.stream().map(RegistrationIT::token).toList();
        List<WebClient> browsers = List.of(new WebClient(port), new WebClient(port));
        List<String> csrf = List.of(WebClient.csrfOf(browsers.get(0).get("/registro/confirmar?token=" + tokens.get(0)).body()),
                WebClient.csrfOf(browsers.get(1).get("/registro/confirmar?token=" + tokens.get(1)).body()));
        creations = new CyclicBarrier(2);
        List<HttpResponse<String>> answers;
        try {
            var first = CompletableFuture.supplyAsync(() -> browsers.get(0).postForm("/registro/confirmar",
                    Map.of("token", tokens.get(0), "_csrf", csrf.get(0))));
            var second = CompletableFuture.supplyAsync(() -> browsers.get(1).postForm("/registro/confirmar",
                    Map.of("token", tokens.get(1), "_csrf", csrf.get(1))));
            answers = List.of(first.get(60, TimeUnit.SECONDS), second.get(60, TimeUnit.SECONDS));
        }
        finally {
            creations = null;
        }

        assertThat(answers).extracting(HttpResponse::statusCode).containsExactlyInAnyOrder(302, 400);
        HttpResponse<String> taken = answers.stream().filter(a -> a.statusCode() == 400).findFirst().orElseThrow();
        assertThat(taken.body()).contains("id=\"signup-taken\"").contains("Ya hay una cuenta con esa dirección; no se ha creado otra.");
        assertThat(jdbc.queryForObject("select count(*) from users where correo = ?", Long.class, correo)).isEqualTo(1);
        int winner = answers.get(0).statusCode() == 302 ? 0 : 1;
        assertThat(browsers.get(winner).get("/cuenta/").statusCode()).isEqualTo(200);
        assertThat(browsers.get(1 - winner).get("/cuenta/").statusCode()).as("the other is not logged in").isEqualTo(302);
        // the other link now says so at once
        HttpResponse<String> later = confirm(new WebClient(port), tokens.get(1 - winner), Map.of());
        assertThat(later.statusCode()).isEqualTo(400);
        assertThat(later.body()).contains("id=\"signup-taken\"");
    }

    @Test
    void theLinksPageSaysWhoseSignUpItIsAndTheMailboxOwnerMayChooseTheirOwnPassword() throws Exception {
        String correo = newAddress();
        assertThat(signUp(new WebClient(port), correo, "Intrusa", PASSWORD, null, clientAddress()).statusCode())
                .isEqualTo(200);
        String token = token(MAIL.mailFor(correo, 1).get(0));
        var owner = new WebClient(port);
        HttpResponse<String> page = owner.get("/registro/confirmar?token=" + token);
        assertThat(page.body()).contains("Alguien que se ha presentado como").contains("«Intrusa»")
                .contains("ha pedido crear una cuenta con la dirección").contains(correo)
                .contains("name=\"password\"").contains("Tu propia contraseña (opcional)")
                .contains("name=\"accion\" value=\"rechazar\"").contains("No es mío: cancelar el registro");
        HttpResponse<String> english = new WebClient(port).get("/registro/confirmar?token=" + token,
                "Accept-Language", "en");
        assertThat(english.body()).contains("Someone who gave the name").contains("«Intrusa»")
                .contains("asked for an account with the address").contains("Your own password (optional)")
                .contains("Not mine: cancel the sign-up");

        HttpResponse<String> tooShort = confirm(owner, token, Map.of("password", "corta"));
        assertThat(tooShort.statusCode()).isEqualTo(400);
        assertThat(tooShort.body()).contains("id=\"password-error\"").contains("La contraseña debe tener al menos 12 caracteres")
                .contains("«Intrusa»");
        assertThat(accounts.findByEmail(correo)).isEmpty();

        HttpResponse<String> created = confirm(owner, token, Map.of("password", "the-owners-own-password"));
        assertThat(created.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(created)).isEqualTo("/");
        assertThat(owner.get("/cuenta/").statusCode()).isEqualTo(200);
        assertThat(WebClient.location(new WebClient(port).login(correo, PASSWORD))).as("the typist's password")
                .isEqualTo("/login/?error=1");
        assertThat(WebClient.location(new WebClient(port).login(correo, "the-owners-own-password"))).isEqualTo("/");
    }

    @Test
    void theMailboxOwnerMayRefuseASignUpAndNothingIsCreatedNorLeftToUse() throws Exception {
        String correo = newAddress();
        assertThat(signUp(new WebClient(port), correo, "Intruso", PASSWORD, null, clientAddress()).statusCode())
                .isEqualTo(200);
        String token = token(MAIL.mailFor(correo, 1).get(0));

        HttpResponse<String> refused = confirm(new WebClient(port), token, Map.of("accion", "rechazar"));

        assertThat(refused.statusCode()).isEqualTo(200);
        assertThat(refused.body()).contains("id=\"signup-refused\"")
                .contains("Registro cancelado: no se ha creado ninguna cuenta y el enlace ya no sirve.");
        assertThat(accounts.findByEmail(correo)).isEmpty();
        assertThat(new WebClient(port).get("/registro/confirmar?token=" + token).statusCode()).isEqualTo(400);
        var again = new WebClient(port);
        HttpResponse<String> post = again.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                again.csrfFrom("/registro")));
        assertThat(post.statusCode()).isEqualTo(400);
        assertThat(accounts.findByEmail(correo)).isEmpty();
        // nothing of it is left but the row that the address's hourly budget of mails counts
        assertThat(jdbc.queryForMap("select primer_nombre, password_hash, token_digest, continue_to from "
                + "pending_registrations where correo = ?", correo)).hasSize(4).allSatisfy((column, value) -> assertThat(value).as(column).isNull());
    }
}
