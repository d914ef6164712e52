package com.example.identity.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;

/**
 * A developer registers a game server with a webhook in headless Chromium: the secret shown once, the receiver's
 * snippet under "Cómo conectar", a test event sent with the button and its delivery listed. Screenshots go to
 * {@code target/screenshots/}.
 */
class WebhookBrowserIT extends BrowserTest {

    @Autowired
    AccountService accounts;

    Receiver receiver;

    @AfterEach
    void stopReceiver() {
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    void aDeveloperRegistersAWebhookSeesItsSecretOnceAndATestEventDelivered() throws Exception {
        int receiverPort = WebhookTestBase.freePort();
        receiver = new Receiver(receiverPort);
        String email = "webhooks-" + UUID.randomUUID() + "@example.com";
        accounts.create("Diego", email, WebhookTestBase.PASSWORD, Role.DEVELOPER_API);
        logIn(email, WebhookTestBase.PASSWORD);
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(driver -> !driver.getCurrentUrl().contains("/login/"));
        browser.get(base() + "/dashboard/developer.php");

        new Select(browser.findElement(By.id("client-type"))).selectByValue("servidor");
        browser.findElement(By.id("client-name")).sendKeys("Servidor del juego");
        String url = "http://127.0.0.1:" + receiverPort + "/juego";
        browser.findElement(By.id("client-webhook")).sendKeys(url);
        Chromium.submit(browser, By.cssSelector("#client-form button[type=submit]"));
        String secret = browser.findElement(By.id("webhook-secret")).getText();
        assertThat(secret).matches("whsec_[A-Za-z0-9+/]{43}=");
        receiver.expect("/juego", secret);
        Chromium.screenshot(browser, "webhook-secret");

        browser.navigate().to(base() + "/dashboard/developer.php");
        assertThat(browser.findElements(By.id("webhook-secret"))).isEmpty();
        assertThat(browser.getPageSource()).doesNotContain(secret);
        assertThat(browser.findElement(By.cssSelector("#webhooks .webhook h3")).getText()).contains(url);
        // the per-type help of a server holds the receiver's verification code
        assertThat(browser.findElement(By.cssSelector("#app-help .webhook-example")).getAttribute("textContent"))
                .contains("wh.verify(req.body, req.headers)");

        Chromium.submit(browser, By.cssSelector("#webhooks .webhook-test-form button[type=submit]"));
        assertThat(browser.findElement(By.id("notice")).getText()).startsWith("Evento de prueba en camino");
        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.at("/juego").size() == 1);
        assertThat(receiver.at("/juego").get(0).verified()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            browser.navigate().refresh();
            return !browser.findElements(By.cssSelector("#webhooks .webhook-delivery")).isEmpty();
        });
        assertThat(browser.findElement(By.cssSelector("#webhooks .webhook-delivery .delivery-type")).getText())
                .isEqualTo("webhook.prueba");
        assertThat(browser.findElement(By.cssSelector("#webhooks .webhook-delivery .delivery-outcome")).getText())
                .isEqualTo("entregado");
        assertThat(browser.findElement(By.cssSelector("#webhooks .webhook-delivery .delivery-status")).getText())
                .isEqualTo("204");
        browser.findElement(By.id("webhooks")).getLocation(); // scrolled into the screenshot below
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
                "document.getElementById('webhooks').scrollIntoView()");
        Chromium.screenshot(browser, "webhook-deliveries");
    }
}
