package com.example.identity.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;

/**
 * Leaving (decisions §20) in headless Chromium: from the account page to the data download's link and the
 * deletion form, a mistyped address refused with the field's message, then the account deleted and its login
 * gone. Screenshots {@code cuenta-eliminar*} go to {@code target/screenshots/}.
 */
class LeavingBrowserIT extends BrowserTest {

    static final String PASSWORD = "correct-password-123";

    @Autowired
    AccountService accounts;

    @Test
    void aPersonFindsTheirDataAndDeletesTheirAccount() {
        String email = "se-va-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Olga", email, PASSWORD, Role.USER).getId();
        logIn(email, PASSWORD);
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/login/"));

        browser.get(base() + "/cuenta/");
        assertThat(browser.findElement(By.id("link-data")).getAttribute("href")).isEqualTo(base() + "/cuenta/datos");
        Chromium.submit(browser, By.id("link-delete"));
        assertThat(browser.findElement(By.id("download-data")).getAttribute("href")).isEqualTo(base() + "/cuenta/datos");
        browser.findElement(By.id("contrasena")).sendKeys(PASSWORD);
        browser.findElement(By.id("confirmacion")).sendKeys("otra-" + email);
        Chromium.screenshot(browser, "cuenta-eliminar");
        Chromium.submit(browser, By.cssSelector("#delete-form button[type=submit]"));

        assertThat(browser.getPageSource()).contains("Escribe la dirección de correo de tu cuenta tal como es");
        assertThat(accounts.findById(id)).as("nothing deleted").isPresent();
        Chromium.screenshot(browser, "cuenta-eliminar-error");

        browser.findElement(By.id("contrasena")).sendKeys(PASSWORD);
        browser.findElement(By.id("confirmacion")).sendKeys(email);
        Chromium.submit(browser, By.cssSelector("#delete-form button[type=submit]"));

        assertThat(Chromium.find(browser, By.id("account-deleted")).getText())
                .isEqualTo("Tu cuenta y sus datos se han eliminado. Tu correo puede volver a usarse.");
        assertThat(accounts.findById(id)).isEmpty();
        Chromium.screenshot(browser, "cuenta-eliminada");
        browser.get(base() + "/cuenta/");
        assertThat(browser.getCurrentUrl()).as("the session ended with the account").startsWith(base() + "/login/");
        logIn(email, PASSWORD);
        assertThat(browser.getCurrentUrl()).startsWith(base() + "/login/?error");
    }
}
