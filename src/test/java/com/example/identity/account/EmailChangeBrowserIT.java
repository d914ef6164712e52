package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.MailFiles;

/**
 * The account page's forms in headless Chromium: the name changed, the e-mail change refused (a wrong
 * password), sent, confirmed from the link of the {@code .eml} file, the link's page once used, and the
 * budget of requests spent. Screenshots of each state go to {@code target/screenshots/}.
 */
class EmailChangeBrowserIT extends BrowserTest {

    @Autowired
    AccountService accounts;

    void passwordLogin(String email) {
        logIn(email, "correct-password-123");
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/login/"));
    }

    /** Types {@code correo} and {@code contrasena} in the e-mail form of /cuenta/ and sends it. */
    void askForEmail(String correo, String contrasena) {
        WebElement field = browser.findElement(By.id("new-email"));
        field.clear();
        field.sendKeys(correo);
        browser.findElement(By.id("email-password")).sendKeys(contrasena);
        Chromium.submit(browser, By.cssSelector("#email-form button[type=submit]"));
    }

    @Test
    void aUserChangesTheirNameAndTheirAddress() throws Exception {
        String old = "pagina-" + UUID.randomUUID() + "@example.com";
        String fresh = "pagina-nueva-" + UUID.randomUUID() + "@example.com";
        accounts.create("Noelia", old, "correct-password-123", Role.USER);
        passwordLogin(old);

        browser.get(base() + "/cuenta/");
        WebElement name = browser.findElement(By.id("new-name"));
        assertThat(name.getDomProperty("value")).isEqualTo("Noelia");
        name.clear();
        name.sendKeys("Noelia María");
        Chromium.submit(browser, By.cssSelector("#name-form button[type=submit]"));
        assertThat(browser.findElement(By.id("name-changed")).getText()).isEqualTo("Nombre cambiado.");
        assertThat(browser.findElement(By.id("account-name")).getText()).isEqualTo("Noelia María");
        Chromium.screenshot(browser, "cuenta-nombre-cambiado");

        askForEmail(fresh, "not-my-password");
        assertThat(browser.findElement(By.id("email-password-error")).getText()).isEqualTo("La contraseña no es correcta");
        assertThat(browser.findElement(By.id("new-email")).getDomProperty("value")).isEqualTo(fresh);
        Chromium.screenshot(browser, "cuenta-correo-error");

        askForEmail(fresh, "correct-password-123");
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/cuenta/?correo=enviado");
        assertThat(browser.findElement(By.id("email-sent")).getText()).startsWith("Te hemos enviado un enlace a la nueva dirección.");
        Chromium.screenshot(browser, "cuenta-correo-enviado");

        String link = MailFiles.link(MailFiles.newest(fresh, "Confirma tu nueva dirección de correo"), EmailChangeIT.LINK);
        browser.get(base() + "/cuenta/correo/confirmar?token=" + link);
        assertThat(browser.findElement(By.id("email-new")).getText()).isEqualTo(fresh);
        Chromium.screenshot(browser, "cuenta-correo-confirmar");
        Chromium.submit(browser, By.cssSelector("#email-confirm-form button[type=submit]"));
        assertThat(browser.findElement(By.id("email-changed")).getText()).startsWith("Dirección cambiada.");
        Chromium.screenshot(browser, "cuenta-correo-cambiado");

        browser.get(base() + "/cuenta/correo/confirmar?token=" + link);
        assertThat(browser.findElement(By.id("email-link-unusable")).getText())
                .isEqualTo("Este enlace ya no sirve: ha caducado o ya se ha usado.");
        assertThat(browser.findElements(By.id("email-confirm-form"))).isEmpty();
        Chromium.screenshot(browser, "cuenta-correo-enlace-usado");

        // the session ended with the change: in again with the new address, until the budget is spent
        passwordLogin(fresh);
        browser.get(base() + "/cuenta/");
        assertThat(browser.findElement(By.id("account-email")).getText()).isEqualTo(fresh);
        for (int i = 1; i <= 2; i++) {
            askForEmail("otra-" + i + "-" + fresh, "correct-password-123");
            assertThat(browser.findElements(By.id("email-sent"))).hasSize(1);
        }
        askForEmail("otra-3-" + fresh, "correct-password-123");
        assertThat(browser.findElement(By.id("email-error")).getText())
                .isEqualTo("Demasiadas solicitudes de cambio de correo. Vuelve a intentarlo dentro de 60 minutos.");
        Chromium.screenshot(browser, "cuenta-correo-demasiadas");
    }
}
