package com.example.identity.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doAnswer;

import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.crypto.Secrets;
import com.example.identity.mail.Mailer;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.Mailbox;
import com.example.identity.support.WebClient;

/**
 * Password recovery (decisions §17) over real HTTP, with the mail going through a real SMTP server in the
 * test (GreenMail, {@code spring.mail.host}): the link arrives in plain text and HTML, sets a new password
 * once, ends every session; only its SHA-256 is stored; the request is audited; the answer never tells
 * whether an account exists; links per account and requests per address are limited; requests beyond the
 * background queue are dropped, counted and logged.
 */
@IntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class PasswordRecoveryIT {

    @MockitoSpyBean
    Mailer mailer;

    @Autowired
    PasswordRecovery recovery;

    @Autowired
    MeterRegistry registry;

    @RegisterExtension
    static final Mailbox MAIL = new Mailbox(Duration.ofSeconds(5));

    @DynamicPropertySource
    static void mail(DynamicPropertyRegistry registry) {
        MAIL.register(registry);
    }

    static final Pattern LINK = Pattern.compile("https?://[^\\s\"<>]*/login/restablecer\\?token=([A-Za-z0-9_-]{43})");

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    AccountAdministration administration;

    @Autowired
    JdbcTemplate jdbc;

    String newAccount() {
        String email = "olvido-" + UUID.randomUUID() + "@example.com";
        accounts.create("Olvido", email, "the-old-password-1", Role.USER);
        return email;
    }

    /** A recovery request from {@code address} (X-Forwarded-For from the trusted loopback proxy). */
    HttpResponse<String> ask(String email, String address) {
        var web = new WebClient(port);
        String csrf = web.csrfFrom("/login/recuperar");
        return web.postForm("/login/recuperar", Map.of("correo", email, "_csrf", csrf), "X-Forwarded-For", address);
    }

    static String address() {
        return "192.0.2." + (1 + (int) (Math.random() * 250));
    }

    static String token(String body) {
        Matcher m = LINK.matcher(body);
        assertThat(m.find()).as(body).isTrue();
        return m.group(1);
    }

    @Test
    void aForgottenPasswordIsResetThroughTheMailedLinkAndEverySessionEnds() throws Exception {
        String email = newAccount();
        var laptop = new WebClient(port);
        var phone = new WebClient(port);
        assertThat(laptop.login(email, "the-old-password-1").statusCode()).isEqualTo(302);
        assertThat(phone.login(email, "the-old-password-1").statusCode()).isEqualTo(302);
        assertThat(laptop.get("/cuenta/contrasena").statusCode()).isEqualTo(200);

        // the login page links to the request page
        assertThat(new WebClient(port).get("/login/").body()).contains("href=\"/login/recuperar\"");
        HttpResponse<String> asked = ask(email, address());
        assertThat(asked.statusCode()).isEqualTo(200);
        assertThat(asked.body()).contains(PasswordRecoveryController.SENT);
        assertThat(asked.headers().firstValue("Cache-Control")).hasValue("no-store");

        List<MimeMessage> mail = MAIL.mailFor(email, 1);
        assertThat(mail).hasSize(1);
        MimeMessage message = mail.get(0);
        assertThat(message.getSubject()).isEqualTo("Restablece tu contraseña");
        assertThat(message.getRecipients(Message.RecipientType.TO)[0].toString()).isEqualTo(email);
        assertThat(message.getFrom()[0].toString()).isEqualTo("Identidad <no-reply@localhost>");
        // both parts are there (Mailbox fails on a missing one)
        assertThat(Mailbox.text(message)).startsWith("Hola, Olvido:").contains("30 minutos");
        assertThat(Mailbox.html(message)).contains("<a href=\"").contains("Elegir una nueva contraseña");
        String token = token(Mailbox.text(message));
        assertThat(token(Mailbox.html(message))).isEqualTo(token);
        // stored as a digest only: the SHA-256 of the link's token, never the token
        long userId = accounts.findByEmail(email).orElseThrow().getId();
        assertThat(jdbc.queryForList("select token_digest from password_resets where user_id = ?", String.class, userId))
                .containsExactly(Secrets.sha256Hex(token));
        assertThat(jdbc.queryForList("select token_digest from password_resets where token_digest = ?", String.class,
                token)).isEmpty();
        // the request is audited, under the account's address (who asked is not known)
        assertThat(jdbc.queryForList("select subject from audit_events where event = 'PASSWORD_RECOVERY_REQUESTED' "
                + "and actor = ?", String.class, email)).containsExactly("usuario #" + userId + " " + email);

        var browser = new WebClient(port);
        HttpResponse<String> form = browser.get("/login/restablecer?token=" + token);
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).contains("id=\"reset-form\"");
        String csrf = WebClient.csrfOf(form.body());
        HttpResponse<String> mismatch = browser.postForm("/login/restablecer", Map.of("token", token,
                "nueva", "a-brand-new-password", "repetida", "something-else-entirely", "_csrf", csrf));
        assertThat(mismatch.statusCode()).isEqualTo(400);
        assertThat(mismatch.body()).contains("Las contraseñas nuevas no coinciden");
        HttpResponse<String> tooShort = browser.postForm("/login/restablecer", Map.of("token", token,
                "nueva", "short", "repetida", "short", "_csrf", csrf));
        assertThat(tooShort.statusCode()).isEqualTo(400);
        assertThat(tooShort.body()).contains("La nueva contraseña debe tener al menos 12 caracteres");
        // the rules of /cuenta/contrasena, word for word: the new password differs from the current one
        String differ = "La nueva contraseña debe ser distinta de la actual";
        HttpResponse<String> unchanged = laptop.postForm("/cuenta/contrasena", Map.of("actual", "the-old-password-1",
                "nueva", "the-old-password-1", "repetida", "the-old-password-1", "_csrf",
                laptop.csrfFrom("/cuenta/contrasena")));
        assertThat(unchanged.body()).contains(differ);
        HttpResponse<String> same = browser.postForm("/login/restablecer", Map.of("token", token,
                "nueva", "the-old-password-1", "repetida", "the-old-password-1", "_csrf", csrf));
        assertThat(same.statusCode()).isEqualTo(400);
        assertThat(same.body()).contains(differ);
        HttpResponse<String> done = browser.postForm("/login/restablecer", Map.of("token", token,
                "nueva", "a-brand-new-password", "repetida", "a-brand-new-password", "_csrf", csrf));
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(done.body()).contains("id=\"reset-done\"");

        // every session of the account has ended; the old password is gone, the new one works
        assertThat(laptop.get("/cuenta/contrasena").statusCode()).isEqualTo(302);
        assertThat(phone.get("/cuenta/contrasena").statusCode()).isEqualTo(302);
        assertThat(WebClient.location(new WebClient(port).login(email, "the-old-password-1"))).contains("error");
        assertThat(WebClient.location(new WebClient(port).login(email, "a-brand-new-password"))).doesNotContain("error");

        // the link works once
        HttpResponse<String> again = browser.get("/login/restablecer?token=" + token);
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.body()).contains("id=\"reset-expired\"").contains("Este enlace ya no sirve");
        // a link copied from a quoted-printable file ("token=3D...") or cut at a line break: said to be broken
        for (String broken : new String[] { "3D" + token, token.substring(0, 30), "" }) {
            HttpResponse<String> page = browser.get("/login/restablecer?token=" + broken);
            assertThat(page.statusCode()).isEqualTo(400);
            assertThat(page.body()).contains("id=\"reset-expired\"").contains("Este enlace está incompleto o mal copiado")
                    .doesNotContain("Este enlace ya no sirve");
        }
        HttpResponse<String> replay = browser.postForm("/login/restablecer", Map.of("token", token,
                "nueva", "yet-another-password", "repetida", "yet-another-password", "_csrf", csrf));
        assertThat(replay.statusCode()).isEqualTo(400);
        assertThat(WebClient.location(new WebClient(port).login(email, "a-brand-new-password"))).doesNotContain("error");
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'PASSWORD_RECOVERED' "
                + "and subject like ?", Integer.class, "%" + email)).isEqualTo(1);
    }

    @Test
    void theAnswerIsTheSameWhetherTheAccountExistsOrNot() throws Exception {
        String email = newAccount();
        String unknown = "nadie-" + UUID.randomUUID() + "@example.com";
        HttpResponse<String> known = ask(email, address());
        HttpResponse<String> nobody = ask(unknown, address());
        assertThat(nobody.statusCode()).isEqualTo(known.statusCode()).isEqualTo(200);
        assertThat(nobody.body()).isEqualTo(known.body());
        assertThat(MAIL.mailFor(email, 1)).hasSize(1);
        assertThat(MAIL.mailFor(unknown, 1)).isEmpty();
        // a disabled account is sent nothing either
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        String disabled = newAccount();
        administration.disable(new Caller(admin, true), accounts.findByEmail(disabled).orElseThrow().getId());
        assertThat(ask(disabled, address()).body()).isEqualTo(known.body());
        assertThat(MAIL.mailFor(disabled, 1)).isEmpty();
        // malformed input is refused in the page's own words, and asks for nothing
        var web = new WebClient(port);
        HttpResponse<String> malformed = web.postForm("/login/recuperar", Map.of("correo", "no es un correo",
                "_csrf", web.csrfFrom("/login/recuperar")));
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.body()).contains("Escribe una dirección de correo válida.");
    }

    @Test
    void anAccountIsSentThreeLinksAnHourAndAnAddressMayAskFiveTimesIn15Minutes() throws Exception {
        String email = newAccount();
        for (int i = 0; i < 4; i++) {
            assertThat(ask(email, address()).statusCode()).isEqualTo(200);
        }
        assertThat(MAIL.mailFor(email, 4)).as("a 4th would be there within the 5 s it waits").hasSize(3);

        String from = "198.51.100." + (1 + (int) (Math.random() * 250));
        for (int i = 0; i < 5; i++) {
            assertThat(ask("x" + i + "-" + UUID.randomUUID() + "@example.com", from).statusCode()).isEqualTo(200);
        }
        HttpResponse<String> blocked = ask(newAccount(), from);
        assertThat(blocked.statusCode()).isEqualTo(429);
        assertThat(blocked.headers().firstValue("Retry-After")).hasValueSatisfying(
                v -> assertThat(Long.parseLong(v)).isBetween(1L, 900L));
        assertThat(blocked.body()).contains("Demasiadas solicitudes desde tu conexión.");
    }

    /**
     * Two threads send the mail and {@value PasswordRecovery#QUEUE} requests may wait for them; one more is
     * dropped, counted ({@code identity_password_recovery_dropped_total}) and logged, without its address.
     */
    @Test
    void aRequestBeyondTheQueueIsDroppedCountedAndLogged(CapturedOutput output) throws Exception {
        String email = newAccount();
        CountDownLatch busy = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        doAnswer(invocation -> {
            busy.countDown();
            release.await(30, TimeUnit.SECONDS);
            return invocation.callRealMethod();
        }).when(mailer).send(eq(email), anyString(), anyString(), anyString());
        Counter dropped = registry.get("identity.password.recovery.dropped").counter();
        double before = dropped.count();
        try {
            recovery.request(email);
            recovery.request(email);
            // both threads hold one of these two; whatever was queued before them has been taken
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < PasswordRecovery.QUEUE; i++) {
                recovery.request("cola-" + i + "@example.invalid");
            }
            assertThat(dropped.count()).isEqualTo(before);
            recovery.request("la-que-sobra@example.invalid");
            assertThat(dropped.count()).isEqualTo(before + 1);
            assertThat(output.getOut()).contains("Password recovery: 500 requests already waiting, one dropped")
                    .doesNotContain("la-que-sobra");
        }
        finally {
            release.countDown();
        }
        assertThat(MAIL.mailFor(email, 2)).hasSize(2);
    }

    @Test
    void anExpiredLinkIsRefused() throws Exception {
        String email = newAccount();
        ask(email, address());
        String token = token(Mailbox.text(MAIL.mailFor(email, 1).get(0)));
        jdbc.update("update password_resets set expires_at = ? where user_id = ?", Timestamp.from(Instant.now().minusSeconds(1)),
                accounts.findByEmail(email).orElseThrow().getId());
        HttpResponse<String> late = new WebClient(port).get("/login/restablecer?token=" + token);
        assertThat(late.statusCode()).isEqualTo(400);
        assertThat(late.body()).contains("Este enlace ya no sirve");
        assertThat(new WebClient(port).get("/login/restablecer?token=not-a-token").statusCode()).isEqualTo(400);
    }
}
