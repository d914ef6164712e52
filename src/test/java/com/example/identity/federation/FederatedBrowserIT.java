package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.BrowserPerTest;
import com.example.identity.support.Chromium;

/**
 * "Entrar con Google" in headless Chromium, the provider a second instance of this service on 127.0.0.1 (another
 * site than this service's localhost): the login page's buttons, the provider's own login page, the proof asked
 * before linking an address that has an account, and the security page's list. Screenshots go to
 * {@code target/screenshots/federado-*.png}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
class FederatedBrowserIT extends BrowserPerTest {

    static final int PORT = OtherProvider.freePort();
    static final String BASE = "http://localhost:" + PORT;
    static OtherProvider provider;

    @DynamicPropertySource
    static void providers(DynamicPropertyRegistry registry) {
        provider = OtherProvider.start("127.0.0.1");
        var google = provider.application(BASE + "/login/oauth2/code/google");
        String p = "spring.security.oauth2.client.";
        registry.add("server.port", () -> PORT);
        registry.add("identity.issuer", () -> BASE);
        registry.add(p + "registration.google.client-id", google::clientId);
        registry.add(p + "registration.google.client-secret", google::clientSecret);
        registry.add(p + "registration.google.client-name", () -> "Google");
        registry.add(p + "registration.google.scope", () -> "openid,email,profile");
        registry.add(p + "provider.google.issuer-uri", () -> provider.issuer);
    }

    @AfterAll
    static void stopProvider() {
        if (provider != null) { // null when the class never started its application
            provider.close();
        }
    }

    @Autowired
    AccountService accounts;

    @Test
    void aPersonWhoseAddressHasAnAccountLinksGoogleAfterProvingItAndSeesTheLink() {
        String email = "navegador-" + UUID.randomUUID() + "@example.com";
        provider.person("Berta", email, "provider-password-1", true);
        accounts.create("Berta", email, "my-password-here-1", Role.USER);

        browser.get(BASE + "/login/");
        assertThat(browser.findElement(By.id("federated-google")).getText()).isEqualTo("Entrar con Google");
        assertThat(browser.findElement(By.id("sign-up")).getText()).isEqualTo("Crear cuenta");
        Chromium.screenshot(browser, "federado-login");
        Chromium.submit(browser, By.id("federated-google"));

        // the provider's own login page
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().startsWith(provider.issuer + "/login/"));
        browser.findElement(By.id("username")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("provider-password-1");
        Chromium.submit(browser, By.cssSelector("#login-form button[type=submit]"));

        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> d.getCurrentUrl().equals(BASE + "/login/vincular"));
        assertThat(browser.findElement(By.id("link-address")).getText()).isEqualTo(email);
        assertThat(browser.findElement(By.id("link-provider")).getText()).isEqualTo("Google");
        browser.findElement(By.id("password")).sendKeys("my-password-here-1");
        Chromium.screenshot(browser, "federado-vincular");
        Chromium.submit(browser, By.cssSelector("#link-form button[type=submit]"));
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().equals(BASE + "/"));

        browser.get(BASE + "/cuenta/seguridad");
        assertThat(browser.findElement(By.id("linked-identities")).getText()).contains("Google").contains("Desvincular");
        Chromium.screenshot(browser, "federado-seguridad");
    }
}
