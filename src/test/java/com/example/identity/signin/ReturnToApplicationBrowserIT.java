package com.example.identity.signin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.mfa.TotpCodes;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.FirstParty;
import com.sun.net.httpserver.HttpServer;

/**
 * A web site is on another origin than this service, as every real one is: the login form, the second step
 * and the consent page post forms whose answers end, through the authorization endpoint, at the site's
 * redirect URI. Chromium applies the page's {@code form-action} to that whole chain, so each of these pages
 * must allow the site's origin (web/PagePolicy), or the browser stays on the page with the code never
 * delivered. Here the service is {@code localhost} and the site {@code 127.0.0.1} on a port of its own.
 */
class ReturnToApplicationBrowserIT extends BrowserTest {

    @Autowired
    ClientService clients;

    @Autowired
    AccountService accounts;

    @Autowired
    SecondFactors factors;

    private HttpServer site;
    private String callback;

    @BeforeEach
    void startSite() throws IOException {
        site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        site.createContext("/cb", exchange -> {
            byte[] body = "<html><head><title>Sitio</title></head><body>de vuelta</body></html>"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html;charset=UTF-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        site.start();
        callback = "http://127.0.0.1:" + site.getAddress().getPort() + "/cb";
    }

    @AfterEach
    void stopSite() {
        if (site != null) { // null when the set-up did not run (a browser that could not start)
            site.stop(0);
        }
    }

    private long owner() {
        return accounts.findByEmail("dev@example.com").orElseThrow().getId();
    }

    private String authorizeUrl(String clientId, String state) {
        return base() + "/oauth/authorize.php?response_type=code&client_id=" + clientId + "&redirect_uri="
                + java.net.URLEncoder.encode(callback, StandardCharsets.UTF_8) + "&scope=openid%20email&state=" + state;
    }

    private void arrivesAtTheSite(String state) {
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().startsWith(callback + "?"));
        assertThat(browser.getCurrentUrl()).matches(java.util.regex.Pattern.quote(callback)
                + "\\?code=[A-Za-z0-9_\\-]{43,}&state=" + state);
        assertThat(browser.findElement(By.tagName("body")).getText()).isEqualTo("de vuelta");
    }

    @Test
    void loginAndConsentEndAtASiteOnAnotherOrigin() {
        String email = "sitio-" + UUID.randomUUID() + "@example.com";
        accounts.create("Sara", email, "correct-password-123", Role.USER);
        var firstParty = FirstParty.register(clients, owner(), "Sitio propio", callback);

        browser.get(authorizeUrl(firstParty.clientId(), "uno"));
        assertThat(browser.getCurrentUrl()).startsWith(base() + "/login/?redirect=");
        submitLoginForm(email, "correct-password-123");
        arrivesAtTheSite("uno");

        // a third-party site: the consent page's "Permitir" ends there too, and so does "No permitir"
        var thirdParty = clients.register(owner(), "Sitio ajeno", callback);
        browser.get(authorizeUrl(thirdParty.clientId(), "dos"));
        assertThat(browser.getCurrentUrl()).startsWith(base() + "/oauth/consent");
        Chromium.screenshot(browser, "consentimiento-otro-origen");
        browser.findElement(By.cssSelector("button[name=decision][value=allow]")).click();
        arrivesAtTheSite("dos");

        var another = clients.register(owner(), "Otro sitio ajeno", callback);
        browser.get(authorizeUrl(another.clientId(), "tres"));
        browser.findElement(By.cssSelector("button[name=decision][value=deny]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().startsWith(callback + "?"));
        assertThat(browser.getCurrentUrl()).startsWith(callback + "?error=access_denied&").endsWith("&state=tres");
    }

    @Test
    void theSecondStepEndsAtASiteOnAnotherOrigin() {
        String email = "sitio-totp-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Tomás", email, "correct-password-123", Role.USER).getId();
        String secret = factors.newSecret();
        assertThat(factors.enable(id, secret, TotpCodes.now(secret, 0))).hasSize(10);
        var client = FirstParty.register(clients, owner(), "Sitio con segundo factor", callback);

        browser.get(authorizeUrl(client.clientId(), "cuatro"));
        submitLoginForm(email, "correct-password-123");
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().contains("/login/segundo-paso"));
        browser.findElement(By.name("codigo")).sendKeys(TotpCodes.now(secret, 1));
        browser.findElement(By.cssSelector("#second-step-form button[type=submit]")).click();
        arrivesAtTheSite("cuatro");
    }
}
