package com.example.identity.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.WebDriver;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A fresh headless Chromium for each test against the running application ({@link Chromium}). */
@IntegrationTest
public abstract class BrowserTest {

    @LocalServerPort
    protected int port;

    protected WebDriver browser;

    @BeforeEach
    void startBrowser() {
        browser = Chromium.start();
    }

    @AfterEach
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    protected String base() {
        return "http://localhost:" + port;
    }
}
