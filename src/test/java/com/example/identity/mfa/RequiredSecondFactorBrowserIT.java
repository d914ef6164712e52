package com.example.identity.mfa;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;

/** The enrolment at login that {@code identity.mfa.required-roles} imposes, in headless Chromium (screenshot). */
@TestPropertySource(properties = "identity.mfa.required-roles=developer_api")
class RequiredSecondFactorBrowserIT extends BrowserTest {

    @Autowired
    AccountService accounts;

    @Test
    void aDeveloperIsAskedToSetUpASecondFactorAtLogin() {
        String email = "dev-" + UUID.randomUUID() + "@example.com";
        accounts.create("Dora", email, "correct-password-123", Role.DEVELOPER_API);
        logIn(email, "correct-password-123");
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/login/segundo-paso/alta");
        Chromium.screenshot(browser, "segundo-paso-alta");
        String secret = browser.findElement(By.id("totp-secret")).getText();
        browser.findElement(By.id("codigo")).sendKeys(TotpCodes.now(secret, 0));
        browser.findElement(By.id("totp-password")).sendKeys("correct-password-123");
        // the form as a person fills it in: the code and, since issue 25, the account's password
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView()",
                browser.findElement(By.id("totp-form")));
        Chromium.screenshot(browser, "segundo-paso-alta-formulario");
        Chromium.submit(browser, By.cssSelector("#totp-form button[type=submit]"));
        Chromium.submit(browser, By.id("recovery-continue"));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/dashboard/developer.php");
    }
}
