package com.example.identity.registration;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.mail.internet.MimeMessage;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.MailFiles;

/**
 * Sign-up in headless Chromium on the embedded default (no SMTP server: the mail is an {@code .eml} file under
 * the tests' {@code target/mail}): from the login page's "Crear cuenta" to the form, the mailed link's landing,
 * and the account page, logged in. Screenshots of each page go to {@code target/screenshots/}.
 */
class SignUpBrowserIT extends BrowserTest {

    static final Pattern LINK = Pattern.compile("https?://[^/\\s]+(/registro/confirmar\\?token=[A-Za-z0-9_-]{43})");

    @Autowired
    AccountService accounts;

    @Test
    void aVisitorSignsUpConfirmsFromTheMailAndLandsLoggedIn() throws Exception {
        String email = "registro-" + UUID.randomUUID() + "@example.com";

        browser.get(base() + "/login/");
        Chromium.submit(browser, By.id("sign-up"));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/registro");
        browser.findElement(By.id("correo")).sendKeys(email);
        browser.findElement(By.id("primer_nombre")).sendKeys("Noa");
        Chromium.fillDate(browser, By.id("fecha_nacimiento"), "1990-05-17");
        browser.findElement(By.id("password")).sendKeys("my-own-password-123");
        Chromium.screenshot(browser, "registro");
        Chromium.submit(browser, By.cssSelector("#signup-form button[type=submit]"));
        assertThat(Chromium.find(browser, By.id("signup-sent")).getText()).startsWith("Te hemos enviado un correo a "
                + email + ".");
        Chromium.screenshot(browser, "registro-enviado");
        assertThat(accounts.findByEmail(email)).isEmpty();

        MimeMessage mail = MailFiles.newest(email, "Confirma tu cuenta");
        Matcher link = LINK.matcher(MailFiles.text(mail));
        assertThat(link.find()).isTrue();

        browser.get(base() + link.group(1));
        assertThat(browser.findElement(By.id("signup-address")).getText()).isEqualTo(email);
        assertThat(browser.findElement(By.id("signup-whose")).getText())
                .isEqualTo("Alguien que se ha presentado como «Noa» ha pedido crear una cuenta con la dirección " + email + ".");
        assertThat(browser.findElement(By.id("signup-refuse")).getText()).isEqualTo("No es mío: cancelar el registro");
        Chromium.screenshot(browser, "registro-confirmar");
        Chromium.submit(browser, By.cssSelector("#signup-confirm-form button[type=submit]"));
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/registro"));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/");
        browser.get(base() + "/cuenta/");
        assertThat(browser.getPageSource()).contains(email);
        Chromium.screenshot(browser, "registro-cuenta");
        assertThat(accounts.findByEmail(email).orElseThrow().isEmailVerified()).isTrue();

        // the link works once
        browser.manage().deleteAllCookies();
        browser.get(base() + link.group(1));
        assertThat(browser.findElement(By.id("signup-link-unusable")).getText())
                .isEqualTo("Este enlace ya no sirve: ha caducado o ya se ha usado.");
        Chromium.screenshot(browser, "registro-caducado");
        assertThat(new String(mail.getSubject().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                .isEqualTo("Confirma tu cuenta");
    }

    /** Issue 39: the mailbox's owner of someone else's sign-up sets their own password on the link's page. */
    @Test
    void theMailboxOwnerSetsTheirOwnPasswordOnTheLinksPage() throws Exception {
        String email = "registro-ajeno-" + UUID.randomUUID() + "@example.com";
        browser.get(base() + "/registro");
        browser.findElement(By.id("correo")).sendKeys(email);
        browser.findElement(By.id("primer_nombre")).sendKeys("Intrusa");
        Chromium.fillDate(browser, By.id("fecha_nacimiento"), "1990-05-17");
        browser.findElement(By.id("password")).sendKeys("the-typists-password");
        Chromium.submit(browser, By.cssSelector("#signup-form button[type=submit]"));
        Chromium.find(browser, By.id("signup-sent"));
        Matcher link = LINK.matcher(MailFiles.text(MailFiles.newest(email, "Confirma tu cuenta")));
        assertThat(link.find()).isTrue();

        browser.manage().deleteAllCookies();
        browser.get(base() + link.group(1));
        assertThat(browser.findElement(By.id("signup-name")).getText()).isEqualTo("«Intrusa»");
        browser.findElement(By.id("password")).sendKeys("the-owners-own-password");
        Chromium.screenshot(browser, "registro-confirmar-contrasena");
        Chromium.submit(browser, By.cssSelector("#signup-confirm-form button[type=submit]"));
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/registro"));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/");
        assertThat(accounts.findByEmail(email)).isPresent();
        browser.manage().deleteAllCookies();
        browser.get(base() + "/login/");
        browser.findElement(By.id("username")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("the-typists-password");
        Chromium.submit(browser, By.cssSelector("form#login-form button[type=submit]"));
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().contains("error"));
    }
}
