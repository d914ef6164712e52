package com.example.identity.support;

import org.openqa.selenium.By;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A fresh headless Chromium for each test ({@link BrowserPerTest}) against the running application. */
@IntegrationTest
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
