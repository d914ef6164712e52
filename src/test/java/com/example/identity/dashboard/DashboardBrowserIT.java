package com.example.identity.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.support.OAuthForms;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.WebClient;

/**
 * A developer who has never seen the service, in headless Chromium: logs in, makes a token and uses
 * it, registers an application and completes a code flow with it, rotates its secret, revokes it.
 * Screenshots of each page go to {@code target/screenshots/}.
 */
class DashboardBrowserIT extends BrowserTest {


    void login(String email, String password) {
        browser.get(base() + "/login/");
        browser.findElement(By.id("username")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.cssSelector("#login-form button[type=submit]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(driver -> !driver.getCurrentUrl().contains("/login/"));
    }

    void acceptConfirmation() {
        new WebDriverWait(browser, Duration.ofSeconds(5)).until(ExpectedConditions.alertIsPresent()).accept();
    }

    @Test
    void developerMakesTokenRegistersApplicationRotatesAndRevokesIt() {
        login("dev@example.com", "dev-demo-password");
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/dashboard/developer.php");
        Chromium.screenshot(browser, "dashboard");

        // a token, shown once, that works at /api/userinfo.php
        browser.findElement(By.id("token-name")).sendKeys("Juego de prueba");
        browser.findElement(By.cssSelector("#token-form button[type=submit]")).click();
        String token = browser.findElement(By.id("new-token")).getText();
        assertThat(token).matches("[0-9a-f]{64}");
        Chromium.screenshot(browser, "dashboard-new-token");
        // the answer to the POST holds the secret; the address is the page's own, so a reload repeats nothing
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/dashboard/developer.php#tokens");
        var info = new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + token);
        assertThat(info.statusCode()).isEqualTo(200);
        assertThat(ApiAssertions.json(info).get("user").get("correo").asString()).isEqualTo("dev@example.com");
        browser.navigate().refresh();
        assertThat(browser.findElements(By.id("new-token"))).isEmpty();

        // a bad redirect URI is explained beside its field
        browser.findElement(By.id("client-name")).sendKeys("Sitio malo");
        browser.findElement(By.id("client-redirect")).sendKeys("http://evil.example/cb");
        browser.findElement(By.cssSelector("#client-form button[type=submit]")).click();
        assertThat(browser.findElement(By.id("client-redirect-error")).getText()).contains("https");
        Chromium.screenshot(browser, "dashboard-client-error");

        // an application, credentials shown once
        String redirectUri = base() + "/callback-de-prueba";
        browser.findElement(By.id("client-name")).clear();
        browser.findElement(By.id("client-name")).sendKeys("Mi sitio web");
        browser.findElement(By.id("client-redirect")).clear();
        browser.findElement(By.id("client-redirect")).sendKeys(redirectUri);
        browser.findElement(By.cssSelector("#client-form button[type=submit]")).click();
        String clientId = browser.findElement(By.id("client-id")).getText();
        String secret = browser.findElement(By.id("client-secret")).getText();
        assertThat(secret).matches("[0-9a-f]{64}");
        assertThat(browser.findElement(By.id("discovery-url")).getText())
                .endsWith("/.well-known/openid-configuration");
        assertThat(browser.findElement(By.id("spring-config")).getText()).contains("client-id: " + clientId);
        Chromium.screenshot(browser, "dashboard-new-client");

        // a code flow with it, in the same browser session
        String code = authorize(clientId, redirectUri);
        var tokens = new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(code, redirectUri, clientId, secret));
        assertThat(tokens.statusCode()).isEqualTo(200);
        assertThat(ApiAssertions.json(tokens).has("id_token")).isTrue();
        String accessToken = ApiAssertions.json(tokens).get("access_token").asString();
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + accessToken).statusCode())
                .isEqualTo(200);

        // rotate: the old secret is refused, the new one works
        browser.get(base() + "/dashboard/developer.php");
        browser.findElement(By.cssSelector("tr[data-client-id='" + clientId + "'] .rotate-form button")).click();
        acceptConfirmation();
        String newSecret = browser.findElement(By.id("client-secret")).getText();
        assertThat(newSecret).matches("[0-9a-f]{64}").isNotEqualTo(secret);
        Chromium.screenshot(browser, "dashboard-rotated");
        var old = new WebClient(port).postForm("/oauth/token.php",
                OAuthForms.codeExchange(authorize(clientId, redirectUri), redirectUri, clientId, secret));
        assertThat(old.statusCode()).isEqualTo(401);
        assertThat(ApiAssertions.json(old).get("error").asString()).isEqualTo("client_secret incorrecto");
        String freshCode = authorize(clientId, redirectUri);
        assertThat(new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(freshCode, redirectUri, clientId, newSecret))
                .statusCode()).isEqualTo(200);

        // revoke: client_revoked
        String lastCode = authorize(clientId, redirectUri);
        browser.get(base() + "/dashboard/developer.php");
        browser.findElement(By.cssSelector("tr[data-client-id='" + clientId + "'] .revoke-form button")).click();
        acceptConfirmation();
        assertThat(browser.findElement(By.cssSelector("tr[data-client-id='" + clientId + "']")).getText()).contains("Revocada");
        Chromium.screenshot(browser, "dashboard-revoked");
        var refused = new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(lastCode, redirectUri, clientId, newSecret));
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(ApiAssertions.json(refused).get("error").asString()).isEqualTo("client_revoked");
        // and the access token it issued before dies with it
        ApiAssertions.assertApiError(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + accessToken),
                401, "Token inválido o revocado");
    }

    @Test
    void plainUserIsRefusedInSpanish() {
        login("user@example.com", "user-demo-password");
        browser.get(base() + "/dashboard/developer.php");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Acceso denegado");
        Chromium.screenshot(browser, "dashboard-refused");
    }

    @Test
    void adminSeesEveryoneAndTheAdminPage() {
        login("admin@example.com", "admin-demo-password");
        browser.get(base() + "/dashboard/admin.php");
        assertThat(browser.findElement(By.id("users-table")).getText()).contains("dev@example.com")
                .contains("user@example.com");
        assertThat(browser.findElement(By.id("all-clients-table")).getText()).contains("demo-app");
        Chromium.screenshot(browser, "admin");
    }

    /** The authorization request in the browser's session; the code is read from where it lands. */
    String authorize(String clientId, String redirectUri) {
        browser.get(base() + "/oauth/authorize.php?response_type=code&client_id=" + clientId + "&redirect_uri="
                + URLEncoder.encode(redirectUri, StandardCharsets.UTF_8) + "&scope=openid%20email&state=st&nonce=n");
        String landed = browser.getCurrentUrl();
        assertThat(landed).startsWith(redirectUri + "?code=");
        return UriComponentsBuilder.fromUriString(landed).build().getQueryParams().getFirst("code");
    }

}
