package com.example.identity.recovery;

import static org.assertj.core.api.Assertions.assertThat;

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
import com.example.identity.account.Role;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.MailFiles;

/**
 * Password recovery in headless Chromium on the embedded default, where no SMTP server is configured: the
 * message is written as an {@code .eml} file (the tests' {@code identity.mail.directory} is
 * {@code target/mail}), read back here as a mail client would, and its link followed, then once more when it
 * no longer works. Screenshots of each page go to {@code target/screenshots/}.
 */
class RecoveryBrowserIT extends BrowserTest {

    static final Pattern LINK = Pattern.compile("https?://[^/\\s]+(/login/restablecer\\?token=[A-Za-z0-9_-]{43})");

    @Autowired
    AccountService accounts;

    @Test
    void aUserWhoForgotTheirPasswordSetsANewOneFromTheMailedLink() throws Exception {
        String email = "olvido-" + UUID.randomUUID() + "@example.com";
        accounts.create("Olvido", email, "the-old-password-1", Role.USER);

        browser.get(base() + "/login/");
        Chromium.submit(browser, By.id("forgot-password"));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/login/recuperar");
        browser.findElement(By.id("correo")).sendKeys(email);
        Chromium.screenshot(browser, "recuperar");
        Chromium.submit(browser, By.cssSelector("#recover-form button[type=submit]"));
        assertThat(Chromium.find(browser, By.id("recover-sent")).getText()).isEqualTo(PasswordRecoveryController.SENT);
        Chromium.screenshot(browser, "recuperar-enviado");

        MimeMessage mail = MailFiles.newest(email, "Restablece tu contraseña");
        assertThat(mail.getSubject()).isEqualTo("Restablece tu contraseña");
        Matcher link = LINK.matcher(new String(mail.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                + MailFiles.text(mail));
        assertThat(link.find()).isTrue();

        browser.get(base() + link.group(1));
        Chromium.screenshot(browser, "restablecer");
        browser.findElement(By.id("nueva")).sendKeys("my-new-password-123");
        browser.findElement(By.id("repetida")).sendKeys("my-new-password-123");
        Chromium.submit(browser, By.cssSelector("#reset-form button[type=submit]"));
        assertThat(Chromium.find(browser, By.id("reset-done")).getText()).contains("Contraseña cambiada");
        Chromium.screenshot(browser, "restablecer-hecho");

        // the link works once: opened again, its page says so and offers a new one
        browser.get(base() + link.group(1));
        assertThat(browser.findElement(By.id("reset-expired")).getText())
                .isEqualTo("Este enlace ya no sirve: ha caducado o ya se ha usado. Pide otro.");
        assertThat(browser.findElements(By.id("reset-form"))).isEmpty();
        assertThat(browser.findElement(By.linkText("Pedir un enlace nuevo")).getDomAttribute("href")).isEqualTo("/login/recuperar");
        Chromium.screenshot(browser, "restablecer-caducado");

        browser.get(base() + "/login/");
        browser.findElement(By.id("username")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("my-new-password-123");
        Chromium.submit(browser, By.cssSelector("#login-form button[type=submit]"));
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/login/"));
        assertThat(browser.getCurrentUrl()).doesNotContain("error");
    }
}
