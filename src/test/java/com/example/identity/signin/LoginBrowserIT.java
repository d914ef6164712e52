package com.example.identity.signin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;

class LoginBrowserIT extends BrowserTest {


    @Test
    void developerLogsInAndReachesTheDeveloperPage() {
        browser.get("http://localhost:" + port + "/login/");
        Chromium.screenshot(browser, "login");
        assertThat(browser.getTitle()).isEqualTo("Iniciar sesión");

        browser.findElement(By.id("username")).sendKeys("dev@example.com");
        browser.findElement(By.id("password")).sendKeys("dev-demo-password");
        Chromium.submit(browser, By.cssSelector("#login-form button[type=submit]"));

        assertThat(browser.getCurrentUrl()).isEqualTo("http://localhost:" + port + "/dashboard/developer.php");
        assertThat(browser.findElement(By.id("dashboard-owner")).getText()).contains("Diego");
        Chromium.screenshot(browser, "dashboard-after-login");
    }

    @Test
    void wrongPasswordShowsTheGenericMessage() {
        browser.get("http://localhost:" + port + "/dashboard/developer.php");
        assertThat(browser.getCurrentUrl()).startsWith("http://localhost:" + port + "/login/?redirect=");

        browser.findElement(By.id("username")).sendKeys("dev@example.com");
        browser.findElement(By.id("password")).sendKeys("not-the-password");
        Chromium.submit(browser, By.cssSelector("#login-form button[type=submit]"));

        assertThat(browser.findElement(By.id("login-error")).getText()).isEqualTo("Correo o contraseña incorrectos.");
        Chromium.screenshot(browser, "login-failed");
    }
}
