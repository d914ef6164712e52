package com.example.identity.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.mfa.TotpCodes;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;

/**
 * The account pages and the second factor in headless Chromium: the account page, the security page with
 * its open sessions, setting TOTP up from the QR code's page, the recovery codes shown once, and the
 * login's second step afterwards. Screenshots of each page go to {@code target/screenshots/}.
 */
class AccountBrowserIT extends BrowserTest {

    @Autowired
    AccountService accounts;

    void passwordLogin(String email) {
        logIn(email, "correct-password-123");
    }

    @Test
    void aUserSetsUpTotpAndLogsInWithIt() {
        String email = "navegador-" + UUID.randomUUID() + "@example.com";
        accounts.create("Nerea", email, "correct-password-123", Role.USER);
        passwordLogin(email);
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/login/"));

        browser.get(base() + "/cuenta/");
        assertThat(browser.findElement(By.id("account-email")).getText()).isEqualTo(email);
        assertThat(browser.findElements(By.id("throttled"))).as("nothing was refused").isEmpty();
        Chromium.screenshot(browser, "cuenta");
        Chromium.submit(browser, By.id("link-security"));
        assertThat(browser.findElements(By.cssSelector("#sessions-table tr[data-current=true]"))).hasSize(1);
        assertThat(browser.findElement(By.id("sessions-table")).getText()).contains("Chrome en Linux").contains("Esta sesión");
        assertThat(browser.findElements(By.id("throttled"))).as("nothing was refused").isEmpty();
        Chromium.screenshot(browser, "cuenta-seguridad");

        Chromium.submit(browser, By.id("totp-enable"));
        assertThat(browser.findElement(By.id("totp-qr")).isDisplayed()).isTrue();
        String secret = browser.findElement(By.id("totp-secret")).getText();
        browser.findElement(By.id("totp-password")).sendKeys("correct-password-123");
        Chromium.screenshot(browser, "cuenta-totp");
        browser.findElement(By.id("codigo")).sendKeys(TotpCodes.now(secret, 0));
        Chromium.submit(browser, By.cssSelector("#totp-form button[type=submit]"));
        assertThat(Chromium.find(browser, By.id("recovery-codes")).getText().lines().toList()).hasSize(10);
        Chromium.screenshot(browser, "cuenta-codigos-recuperacion");
        Chromium.submit(browser, By.id("recovery-continue"));
        assertThat(browser.findElement(By.id("totp-state")).getText()).startsWith("Activada");
        Chromium.screenshot(browser, "cuenta-seguridad-totp");

        browser.manage().deleteAllCookies();
        passwordLogin(email);
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/login/segundo-paso");
        Chromium.screenshot(browser, "segundo-paso");
        browser.findElement(By.id("codigo")).sendKeys(TotpCodes.now(secret, 1));
        Chromium.submit(browser, By.cssSelector("#second-step-form button[type=submit]"));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/");
        browser.get(base() + "/cuenta/");
        assertThat(browser.findElement(By.id("account-email")).getText()).isEqualTo(email);
    }
}
