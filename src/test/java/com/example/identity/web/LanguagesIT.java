package com.example.identity.web;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import jakarta.mail.internet.MimeMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.Mailbox;
import com.example.identity.support.WebClient;

/**
 * The languages (decisions §22) over real HTTP: Spanish by default, English by {@code Accept-Language} or by the
 * switch ({@code ?lang=}, kept in a cookie, which outranks the header); the e-mails in the language of the request
 * that asked for them (GreenMail); and the JSON contract unmoved: {@code /api/} and {@code /oauth/} bodies are the
 * same Spanish bytes whatever the language asked.
 */
@IntegrationTest
class LanguagesIT {

    @RegisterExtension
    static final Mailbox MAIL = new Mailbox(Duration.ofSeconds(10));

    @DynamicPropertySource
    static void mail(DynamicPropertyRegistry registry) {
        MAIL.register(registry);
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Test
    void spanishUnlessTheBrowserAsksForEnglish() {
        var web = new WebClient(port);
        HttpResponse<String> spanish = web.get("/login/");
        assertThat(spanish.body()).contains("<html lang=\"es\">").contains("<h1>Iniciar sesión</h1>")
                .contains(">English</a>").contains("href=\"/login/?lang=en\"");

        HttpResponse<String> english = new WebClient(port).get("/login/", "Accept-Language", "en-GB,en;q=0.9,es;q=0.5");
        assertThat(english.body()).contains("<html lang=\"en\">").contains("<h1>Log in</h1>")
                .contains("<label for=\"password\">Password</label>").contains(">Español</a>")
                .contains("href=\"/login/?lang=es\"").doesNotContain("Iniciar sesión");

        // a language the pages do not speak: the next one of the header, else Spanish
        assertThat(new WebClient(port).get("/login/", "Accept-Language", "fr, en;q=0.8").body()).contains("<h1>Log in</h1>");
        assertThat(new WebClient(port).get("/login/", "Accept-Language", "fr").body()).contains("<h1>Iniciar sesión</h1>");
    }

    @Test
    void theSwitchIsKeptInACookieAndOutranksTheHeader() {
        var web = new WebClient(port);
        HttpResponse<String> switched = web.get("/login/?redirect=%2Fcuenta%2F&lang=en", "Accept-Language", "es");
        assertThat(switched.statusCode()).isEqualTo(200);
        assertThat(switched.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("lang=en;")
                .contains("HttpOnly").contains("SameSite=Lax"));
        // the switch keeps the page's other parameters (an authorization request's return included)
        assertThat(switched.body()).contains("<h1>Log in</h1>").contains("href=\"/login/?redirect=%2Fcuenta%2F&amp;lang=es\"");
        assertThat(web.get("/login/recuperar", "Accept-Language", "es").body()).contains("<h1>Forgot your password?</h1>");
        assertThat(web.get("/registro?lang=es", "Accept-Language", "en").body()).contains("<h1>Crear una cuenta</h1>");
        assertThat(web.get("/login/", "Accept-Language", "en").body()).contains("<h1>Iniciar sesión</h1>");
    }

    /** A {@code lang} cookie naming no language (planted by a sibling subdomain, say) is ignored: no 500, no lost login. */
    @Test
    void aLangCookieThatNamesNoLanguageIsIgnored() {
        for (String cookie : new String[] { "lang=en.US", "lang=de/ch", "lang=fr", "lang=%E2%82%AC", "lang=x_y_z_w", "lang=" }) {
            HttpResponse<String> spanish = new WebClient(port).get("/login/", "Cookie", cookie);
            assertThat(spanish.statusCode()).as(cookie).isEqualTo(200);
            assertThat(spanish.body()).as(cookie).contains("<h1>Iniciar sesión</h1>");
            HttpResponse<String> english = new WebClient(port).get("/login/", "Cookie", cookie, "Accept-Language", "en");
            assertThat(english.statusCode()).as(cookie).isEqualTo(200);
            assertThat(english.body()).as("the header decides, " + cookie).contains("<h1>Log in</h1>");
        }
        var web = new WebClient(port);
        HttpResponse<String> page = web.get("/login/", "Cookie", "lang=en.US");
        HttpResponse<String> login = web.postForm("/login/", Map.of("username", "user@example.com", "password",
                "user-demo-password", "_csrf", WebClient.csrfOf(page.body())), "Cookie", "lang=en.US");
        assertThat(login.statusCode()).as("logging in still works").isEqualTo(302);
        assertThat(login.headers().firstValue("Location").orElseThrow()).doesNotContain("error").doesNotContain("bloqueado");
    }

    @Test
    void aPageErrorIsInThePagesLanguage() {
        var web = new WebClient(port);
        String csrf = WebClient.csrfOf(web.get("/login/recuperar", "Accept-Language", "en").body());
        HttpResponse<String> refused = web.postForm("/login/recuperar", Map.of("correo", "no es un correo", "_csrf", csrf),
                "Accept-Language", "en");
        assertThat(refused.body()).contains(">Type a valid e-mail address.</p>");
        HttpResponse<String> spent = new WebClient(port).get("/login/restablecer?token=" + "x".repeat(43),
                "Accept-Language", "en");
        assertThat(spent.body()).contains("This link no longer works: it has expired or has already been used.");
        assertThat(new WebClient(port).get("/login/restablecer?token=3D" + "x".repeat(43), "Accept-Language", "en").body())
                .contains("This link is incomplete or was copied wrongly");
    }

    @Test
    void aMailAskedInEnglishIsWrittenInEnglish() throws Exception {
        String email = "lang-" + UUID.randomUUID() + "@example.com";
        accounts.create("Ana", email, "the-old-password-1", Role.USER);
        var web = new WebClient(port);
        String csrf = WebClient.csrfOf(web.get("/login/recuperar?lang=en").body());
        web.postForm("/login/recuperar", Map.of("correo", email, "_csrf", csrf));

        MimeMessage mail = MAIL.only(email);
        assertThat(mail.getSubject()).isEqualTo("Reset your password");
        String text = Mailbox.text(mail);
        assertThat(text).startsWith("Hello Ana,\n\nSomeone (we hope you) has asked to reset the password of your account "
                + email + ".\nTo choose a new one, open this link within the next 30 minutes:\n\n")
                .endsWith("If you did not ask for it, ignore this message: your password does not change.\n\n"
                        + "Identity service\n");
        assertThat(Mailbox.html(mail)).startsWith("<!DOCTYPE html><html lang=\"en\">").contains(">Choose a new password</a>");
    }

    /**
     * Sign-up mails are written on a background thread (the answer does not wait for the lookup): the language is
     * the page's, carried from the request. A new address gets the link, an address with an account the notice.
     */
    @Test
    void signUpMailsFromAnEnglishPageAreEnglish() throws Exception {
        String fresh = "signup-" + UUID.randomUUID() + "@example.com";
        String taken = "taken-" + UUID.randomUUID() + "@example.com";
        accounts.create("Tom", taken, "the-old-password-1", Role.USER);
        for (String email : new String[] { fresh, taken }) {
            var web = new WebClient(port);
            String csrf = WebClient.csrfOf(web.get("/registro?lang=en", "Accept-Language", "es").body());
            var answer = web.postForm("/registro", Map.of("correo", email, "primer_nombre", "Eve", "password",
                    "a-long-enough-password-1", "fecha_nacimiento", "1990-05-17", "_csrf", csrf), "Accept-Language", "es");
            assertThat(answer.statusCode()).isIn(200, 302);
        }

        MimeMessage link = MAIL.only(fresh);
        assertThat(link.getSubject()).isEqualTo("Confirm your account");
        assertThat(Mailbox.text(link)).startsWith("Hello Eve,\n\nTo finish creating your account " + fresh
                + ", open this link within the next 24 hours:\n\n");
        assertThat(Mailbox.html(link)).startsWith("<!DOCTYPE html><html lang=\"en\">").contains(">Confirm my account</a>");

        MimeMessage notice = MAIL.only(taken);
        assertThat(notice.getSubject()).isEqualTo("Someone tried to create an account with your e-mail address");
        assertThat(Mailbox.text(notice)).startsWith("Hello,\n\nSomeone (perhaps you) tried to create an account with the address "
                + taken + ", but you already have one.");
    }

    @Test
    void aMailAskedInSpanishIsStillSpanish() throws Exception {
        String email = "idioma-" + UUID.randomUUID() + "@example.com";
        accounts.create("Ana", email, "the-old-password-1", Role.USER);
        var web = new WebClient(port);
        String csrf = web.csrfFrom("/login/recuperar");
        web.postForm("/login/recuperar", Map.of("correo", email, "_csrf", csrf));

        MimeMessage mail = MAIL.only(email);
        assertThat(mail.getSubject()).isEqualTo("Restablece tu contraseña");
        assertThat(Mailbox.text(mail)).startsWith("Hola, Ana:\n\nAlguien (esperamos que tú) ha pedido");
    }

    /** The JSON contract does not move with the language: the same Spanish bytes with Accept-Language: en. */
    @Test
    void jsonBodiesStaySpanishWhateverTheLanguage() {
        var english = new WebClient(port);
        assertApiError(english.get("/api/userinfo.php", "Accept-Language", "en"), 401, "Falta token Bearer");
        assertApiError(english.get("/api/userinfo.php", "Accept-Language", "en", "Authorization", "Bearer " + "0".repeat(64)),
                401, "Token inválido o revocado");
        assertApiError(english.get("/api/tokens/list.php", "Accept-Language", "en"), 401, "Sesión no iniciada");
        assertApiError(english.get("/api/no-existe.php", "Accept-Language", "en", "Authorization", "Bearer " + "0".repeat(64)),
                401, "Token inválido o revocado");
        // even with the switch's cookie set to English
        english.get("/login/?lang=en");

        HttpResponse<String> userinfo = english.get("/oauth/userinfo.php", "Accept-Language", "en");
        assertThat(userinfo.statusCode()).isEqualTo(401);
        assertThat(userinfo.body()).isEqualTo("{\"error\":\"invalid_token\",\"error_description\":\"Falta el token de acceso\"}");

        HttpResponse<String> grant = english.postForm("/oauth/token.php", Map.of("grant_type", "nada"), "Accept-Language", "en");
        HttpResponse<String> sameInSpanish = new WebClient(port).postForm("/oauth/token.php", Map.of("grant_type", "nada"));
        assertThat(grant.statusCode()).isEqualTo(400);
        assertThat(grant.body()).contains("grant_type inválido").isEqualTo(sameInSpanish.body());

        HttpResponse<String> method = english.get("/oauth/token.php", "Accept-Language", "en");
        assertThat(method.statusCode()).isEqualTo(405);
        assertThat(method.body()).contains("Método no permitido, usa POST");

        HttpResponse<String> discovery = english.get("/.well-known/openid-configuration", "Accept-Language", "en");
        assertThat(discovery.body()).contains("\"ui_locales_supported\":[\"es\",\"en\"]");
    }
}
