package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.example.identity.support.BrowserPerTest;
import com.example.identity.support.Chromium;

/**
 * "Entrar con Steam" in headless Chromium, Steam an OpenID 2.0 provider in the test ({@link FakeSteam}, on
 * 127.0.0.1, another site than this service's localhost): the button, the round trip, the sign-up page that asks
 * a first Steam login for an address (D38), the mail sent. Screenshots {@code target/screenshots/steam-*.png}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
class SteamBrowserIT extends BrowserPerTest {

    static final int PORT = OtherProvider.freePort();
    static final String BASE = "http://localhost:" + PORT;
    static FakeSteam steam;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        steam = new FakeSteam();
        steam.register(registry, PORT);
    }

    @AfterAll
    static void stop() {
        if (steam != null) { // null when the class never started its application
            steam.close();
        }
    }

    @Test
    void aFirstSteamLoginAsksForAnAddressAndMailsTheLink() {
        steam.nextSteamId = "7656119" + String.format("%010d", Math.abs(UUID.randomUUID().getLeastSignificantBits() % 10_000_000_000L));
        browser.get(BASE + "/login/");
        assertThat(browser.findElement(By.id("federated-steam")).getText()).isEqualTo("Entrar con Steam");
        Chromium.screenshot(browser, "steam-login");
        Chromium.submit(browser, By.id("federated-steam"));

        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> d.getCurrentUrl().equals(BASE + "/registro"));
        assertThat(browser.findElement(By.id("signup-identity")).getText()).contains("Es la primera vez que entras con Steam");
        assertThat(browser.findElements(By.id("password"))).isEmpty();
        browser.findElement(By.id("correo")).sendKeys("jugador-" + UUID.randomUUID() + "@example.com");
        browser.findElement(By.id("primer_nombre")).sendKeys("Gabe");
        Chromium.fillDate(browser, By.id("fecha_nacimiento"), "1990-05-17");
        Chromium.screenshot(browser, "steam-correo");
        Chromium.submit(browser, By.cssSelector("#signup-form button[type=submit]"));
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.findElements(By.id("signup-sent")).isEmpty());
        Chromium.screenshot(browser, "steam-enviado");
    }
}
