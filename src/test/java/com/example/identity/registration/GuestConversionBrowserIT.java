package com.example.identity.registration;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.mail.internet.MimeMessage;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.MailFiles;
import com.example.identity.support.WebClient;

import tools.jackson.databind.json.JsonMapper;

/**
 * Keeping a guest's progress in headless Chromium (decisions §24): the address the game opens, the sign-up form of
 * that page, the mailed link's page and the home page that says the progress is kept; an address that is someone's
 * (the link's page says so, in Spanish and in English); a spent address. Screenshots of each page go to
 * {@code target/screenshots/} (the mail is an {@code .eml} file under the tests' {@code target/mail}).
 */
class GuestConversionBrowserIT extends BrowserTest {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final Pattern LINK = Pattern.compile("https?://[^/\\s]+(/registro/confirmar\\?token=[A-Za-z0-9_-]{43})");

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    /** A guest's game asks for the address where the player keeps the progress: its path here. */
    String conversionAddress() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var game = clients.register(owner, "Juego", "http://127.0.0.1/juego", List.of(), ClientType.NATIVE, null,
                com.example.identity.client.SenderConstraints.NONE, true);
        var random = ThreadLocalRandom.current();
        HttpResponse<String> made = new WebClient(port).postForm("/oauth/invitado.php", Map.of("client_id", game.clientId()),
                "X-Forwarded-For", "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + (1 + random.nextInt(254)));
        String access = JSON.readTree(made.body()).get("access_token").asString();
        String url = JSON.readTree(new WebClient(port).postRaw("/api/invitados/convertir.php", "", "Authorization",
                "Bearer " + access).body()).get("url").asString();
        return url.substring(url.indexOf("/registro"));
    }

    void signUp(String email) {
        browser.findElement(By.id("correo")).sendKeys(email);
        browser.findElement(By.id("primer_nombre")).clear();
        browser.findElement(By.id("primer_nombre")).sendKeys("Noa");
        Chromium.fillDate(browser, By.id("fecha_nacimiento"), "1990-05-17");
        browser.findElement(By.id("password")).sendKeys("my-own-password-123");
        Chromium.submit(browser, By.cssSelector("#signup-form button[type=submit]"));
    }

    static String link(MimeMessage mail) throws Exception {
        Matcher link = LINK.matcher(MailFiles.text(mail));
        assertThat(link.find()).isTrue();
        return link.group(1);
    }

    @Test
    void aGuestKeepsItsProgressBySigningUpFromTheGamesAddress() throws Exception {
        String address = conversionAddress();
        String email = "invitada-" + UUID.randomUUID() + "@example.com";

        browser.get(base() + address);
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Guardar tu progreso");
        assertThat(browser.findElement(By.id("guest-conversion")).getText())
                .matches("Vas a guardar el progreso de Invitado \\d{4}: crea tu cuenta y todo lo que has conseguido jugando "
                        + "como invitado seguirá siendo tuyo, con la misma cuenta\\.");
        Chromium.screenshot(browser, "invitado-guardar");
        signUp(email);
        assertThat(Chromium.find(browser, By.id("signup-sent")).getText()).startsWith("Te hemos enviado un correo a " + email);
        Chromium.screenshot(browser, "invitado-enviado");

        browser.get(base() + link(MailFiles.newest(email, "Guarda tu progreso")));
        assertThat(browser.findElement(By.id("signup-guest")).getText()).matches("El progreso de Invitado \\d{4} se "
                + "guardará en esta cuenta: es la misma cuenta, que deja de ser de invitado\\.");
        Chromium.screenshot(browser, "invitado-confirmar");
        Chromium.submit(browser, By.cssSelector("#signup-confirm-form button[type=submit]"));
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/registro"));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/?invitado=guardado");
        assertThat(browser.findElement(By.id("guest-kept")).getText()).isEqualTo("Tu progreso está guardado: tu cuenta de "
                + "invitado es ahora una cuenta completa. Ya puedes volver al juego.");
        assertThat(browser.findElement(By.id("whoami")).getText()).contains(email).contains("user");
        Chromium.screenshot(browser, "invitado-guardado");
        assertThat(accounts.findByEmail(email).orElseThrow().getRol()).isEqualTo(Role.USER);

        // the game's address works once
        browser.manage().deleteAllCookies();
        browser.get(base() + address);
        assertThat(browser.findElement(By.id("guest-link-unusable")).getText()).isEqualTo("Este enlace para guardar tu "
                + "progreso ya no sirve: se usa una sola vez y caduca a los 10 minutos. Pide otro desde el juego.");
        assertThat(browser.findElements(By.id("signup-form"))).isEmpty();
        Chromium.screenshot(browser, "invitado-enlace-caducado");
    }

    @Test
    void anAddressThatIsSomeonesMergesNothingAndTheLinksPageSaysSoInBothLanguages() throws Exception {
        String taken = "ocupada-" + UUID.randomUUID() + "@example.com";
        accounts.create("Dueña", taken, "the-owners-password", Role.USER);

        browser.get(base() + conversionAddress());
        signUp(taken);
        assertThat(Chromium.find(browser, By.id("signup-sent")).getText()).startsWith("Te hemos enviado un correo a " + taken);

        browser.get(base() + link(MailFiles.newest(taken, "Guarda tu progreso")));
        assertThat(browser.findElement(By.id("guest-taken")).getText())
                .isEqualTo("Esa dirección de correo ya es de una cuenta de este servicio: no se ha unido nada.");
        assertThat(browser.findElement(By.id("guest-taken-login")).getAttribute("href")).isEqualTo(base() + "/login/");
        assertThat(browser.findElements(By.id("signup-confirm-form"))).isEmpty();
        Chromium.screenshot(browser, "invitado-correo-ocupado");

        Chromium.submit(browser, By.id("language-switch"));
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.findElement(By.tagName("html"))
                .getAttribute("lang").equals("en"));
        assertThat(browser.findElement(By.id("guest-taken")).getText())
                .isEqualTo("That e-mail address already belongs to an account of this service: nothing was merged.");
        assertThat(browser.findElement(By.id("guest-taken-login")).getText()).isEqualTo("Log in to that account");
        Chromium.screenshot(browser, "invitado-correo-ocupado-en");
    }

    @Test
    void anIdentityThatIsSomeonesIsSaidOnThePageTheProvidersLoginEndsAt() {
        // where federation/FederatedGuestConversion sends the browser when the provider's identity logs in to an account
        browser.get(base() + "/registro?ocupado=identidad&proveedor=google");
        assertThat(browser.findElement(By.id("guest-taken")).getText()).isEqualTo("Esa cuenta del otro proveedor ya es la "
                + "forma de entrar en una cuenta de este servicio: no se ha unido nada.");
        assertThat(browser.findElements(By.id("signup-form"))).isEmpty();
        Chromium.screenshot(browser, "invitado-identidad-ocupada");
    }
}
