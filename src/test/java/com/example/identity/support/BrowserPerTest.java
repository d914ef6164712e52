package com.example.identity.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.WebDriver;

/**
 * A fresh headless Chromium for each test ({@link Chromium}), quit after it. {@link BrowserTest} adds the
 * application on a random port; a test that needs the port before the application starts (an issuer that a
 * provider must know) declares its own {@code @SpringBootTest} and extends this alone. Without Chromium the class
 * is skipped before its set-up ({@link NeedsChromium}); a subclass's teardown still checks what it closes.
 */
@NeedsChromium
public abstract class BrowserPerTest {

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
}
