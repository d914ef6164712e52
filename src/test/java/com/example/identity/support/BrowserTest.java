package com.example.identity.support;

import org.openqa.selenium.By;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * A fresh headless Chromium for each test ({@link BrowserPerTest}) against the running application. Every browser
 * comes from 127.0.0.1 and cannot send another client address, so the sign-ups of all the browser classes (sign-up,
 * guests, minors...) would share one client address's budget of 5 in 15 minutes; the browser classes' context raises
 * it. The budget itself is tested with the shipped default (registration/RegistrationIT, recovery/PasswordRecoveryIT).
 */
@IntegrationTest
@TestPropertySource(properties = "identity.rate-limit.recovery-requests=1000")
public abstract class BrowserTest extends BrowserPerTest {

    @LocalServerPort
    protected int port;

    protected String base() {
        return "http://localhost:" + port;
    }

    /** Types the e-mail and password into the login form the browser shows, sends it and waits for the answer. */
    protected void submitLoginForm(String email, String password) {
        browser.findElement(By.id("username")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys(password);
        Chromium.submit(browser, By.cssSelector("#login-form button[type=submit]"));
    }

    /** Opens the login page and logs in; the answer may be a second step, the caller looks. */
    protected void logIn(String email, String password) {
        browser.get(base() + "/login/");
        submitLoginForm(email, password);
    }
}
