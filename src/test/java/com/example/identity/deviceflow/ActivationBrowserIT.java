package com.example.identity.deviceflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import com.example.identity.support.ApiAssertions;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

/**
 * The device flow as a game developer and a player meet it, in headless Chromium: the developer registers
 * a console application in the dashboard and reads its help; the console (plain HTTP here) starts the
 * flow; the player, on a phone-sized window, opens {@code /activar} from the QR code's address, logs in,
 * checks the application and approves; the console's next poll gets the tokens. Screenshots go to
 * {@code target/screenshots/}.
 */
class ActivationBrowserIT extends BrowserTest {

    static final String GRANT = "urn:ietf:params:oauth:grant-type:device_code";

    void login(String email, String password) {
        submitLoginForm(email, password);
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(driver -> !driver.getCurrentUrl().contains("/login/"));
    }

    @Test
    void aDeveloperRegistersAConsoleAndAPlayerActivatesItFromTheirPhone() {
        // the developer: a console application, and the polling loop to copy
        browser.get(base() + "/login/");
        login("dev@example.com", "dev-demo-password");
        browser.get(base() + "/dashboard/developer.php");
        new Select(browser.findElement(By.id("client-type"))).selectByValue("dispositivo");
        browser.findElement(By.id("client-name")).sendKeys("Consola del salón");
        Chromium.submit(browser, By.cssSelector("#client-form button[type=submit]"));
        String clientId = Chromium.find(browser, By.id("client-id")).getText();
        assertThat(browser.findElements(By.id("client-secret"))).as("a device application has no secret").isEmpty();
        assertThat(browser.findElement(By.cssSelector("tr[data-client-id='" + clientId + "'] .client-type")).getText())
                .isEqualTo("dispositivo");
        assertThat(browser.findElement(By.id("device-example")).getText())
                .contains("/oauth/device.php -d client_id=" + clientId)
                .contains("grant_type=urn:ietf:params:oauth:grant-type:device_code")
                .contains("slow_down");
        Chromium.screenshot(browser, "dashboard-device-client");
        browser.manage().deleteAllCookies();

        // the console starts
        var console = new WebClient(port);
        JsonNode started = ApiAssertions.json(console.postForm("/oauth/device.php",
                Map.of("client_id", clientId, "scope", "openid profile")));
        String userCode = started.get("user_code").asString();
        String deviceCode = started.get("device_code").asString();

        // the player, on a phone, scans the QR code: logs in and comes back with the code filled in
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.get(base() + "/activar?code=" + userCode);
        assertThat(browser.getCurrentUrl()).contains("/login/");
        login("user@example.com", "user-demo-password");
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/activar?code=" + userCode);
        assertThat(browser.findElement(By.id("user-code")).getAttribute("value")).isEqualTo(userCode);
        Chromium.screenshot(browser, "activar");

        // a mistyped code first: explained beside the field, what was typed kept
        browser.findElement(By.id("user-code")).clear();
        browser.findElement(By.id("user-code")).sendKeys("BBBB-BBBB");
        Chromium.submit(browser, By.cssSelector("#activate-form button[type=submit]"));
        assertThat(Chromium.find(browser, By.id("activate-error")).getText())
                .isEqualTo("Código incorrecto o caducado. Comprueba el código que muestra tu dispositivo.");
        Chromium.screenshot(browser, "activar-error");

        // typed in lower case without the dash: the same code; the application and what it will see
        browser.findElement(By.id("user-code")).clear();
        browser.findElement(By.id("user-code")).sendKeys(userCode.replace("-", "").toLowerCase());
        Chromium.submit(browser, By.cssSelector("#activate-form button[type=submit]"));
        assertThat(Chromium.find(browser, By.id("activate-client")).getText()).isEqualTo("Consola del salón");
        assertThat(browser.findElement(By.id("activate-code")).getText()).isEqualTo(userCode);
        assertThat(browser.findElements(By.cssSelector("#activate-scopes li")))
                .extracting(e -> e.getAttribute("data-scope")).containsExactly("openid", "profile");
        Chromium.screenshot(browser, "activar-confirmar");

        // the console asks before the player decides
        var pending = console.postForm("/oauth/token.php", Map.of("grant_type", GRANT, "device_code", deviceCode,
                "client_id", clientId));
        assertThat(ApiAssertions.json(pending).get("error").asString()).isEqualTo("authorization_pending");

        Chromium.submit(browser, By.cssSelector("button[name=decision][value=allow]"));
        assertThat(Chromium.find(browser, By.id("activate-done")).getText()).contains("Consola del salón");
        Chromium.screenshot(browser, "activar-listo");

        // the console's next poll gets the player's tokens
        var tokens = console.postForm("/oauth/token.php", Map.of("grant_type", GRANT, "device_code", deviceCode,
                "client_id", clientId));
        assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);
        assertThat(ApiAssertions.json(tokens).has("id_token")).isTrue();
        assertThat(ApiAssertions.json(tokens).has("refresh_token")).isTrue();
    }
}
