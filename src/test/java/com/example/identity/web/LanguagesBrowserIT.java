package com.example.identity.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;

/**
 * The pages in both languages in Chromium (decisions §22), with a screenshot of each in target/screenshots/
 * ({@code idioma-<es|en>-<page>.png}): an application asking for English ({@code ui_locales=en}) gets an
 * English login and consent; the switch turns them Spanish and stays so on the account and dashboard pages;
 * switched again, they are English.
 */
class LanguagesBrowserIT extends BrowserTest {

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    private String heading() {
        return browser.findElement(By.tagName("h1")).getText();
    }

    private String lang() {
        return browser.findElement(By.tagName("html")).getAttribute("lang");
    }

    private void switchLanguage(String label) {
        var link = browser.findElement(By.id("language-switch"));
        assertThat(link.getText()).isEqualTo(label);
        link.click();
    }

    @Test
    void englishFromTheApplicationsRequestThenTheSwitchBothWays() {
        String email = "lang-" + UUID.randomUUID() + "@example.com";
        accounts.create("Lena", email, "correct-password-123", Role.DEVELOPER_API);
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Space game", "http://127.0.0.1:9/cb");

        browser.get(base() + "/oauth/authorize.php?response_type=code&client_id=" + client.clientId() + "&redirect_uri="
                + URLEncoder.encode(client.redirectUri(), StandardCharsets.UTF_8)
                + "&scope=openid%20email%20profile&state=s&ui_locales=en");
        assertThat(lang()).isEqualTo("en");
        assertThat(heading()).isEqualTo("Log in");
        Chromium.screenshot(browser, "idioma-en-login");

        submitLoginForm(email, "correct-password-123");
        assertThat(browser.getCurrentUrl()).startsWith(base() + "/oauth/consent");
        assertThat(heading()).isEqualTo("Space game wants to access your account");
        assertThat(browser.findElement(By.id("consent-allow")).getText()).isEqualTo("Allow");
        Chromium.screenshot(browser, "idioma-en-consentimiento");

        switchLanguage("Español");
        assertThat(lang()).isEqualTo("es");
        assertThat(heading()).isEqualTo("Space game quiere acceder a tu cuenta");
        assertThat(browser.findElement(By.id("consent-allow")).getText()).isEqualTo("Permitir");
        Chromium.screenshot(browser, "idioma-es-consentimiento");

        // the choice is kept: the account pages and the dashboard are Spanish
        browser.get(base() + "/cuenta/");
        assertThat(heading()).isEqualTo("Mi cuenta");
        Chromium.screenshot(browser, "idioma-es-cuenta");
        browser.get(base() + "/cuenta/seguridad");
        assertThat(heading()).isEqualTo("Seguridad");
        Chromium.screenshot(browser, "idioma-es-seguridad");
        browser.get(base() + "/dashboard/developer.php");
        assertThat(heading()).isEqualTo("Panel de desarrollador");
        Chromium.screenshot(browser, "idioma-es-panel");

        switchLanguage("English");
        assertThat(lang()).isEqualTo("en");
        assertThat(heading()).isEqualTo("Developer dashboard");
        assertThat(browser.findElement(By.cssSelector("#token-form button[type=submit]")).getText()).isEqualTo("Create token");
        Chromium.screenshot(browser, "idioma-en-panel");
        browser.get(base() + "/cuenta/");
        assertThat(heading()).isEqualTo("My account");
        assertThat(browser.findElement(By.id("link-password")).getText()).isEqualTo("Change the password");
        Chromium.screenshot(browser, "idioma-en-cuenta");
        browser.get(base() + "/cuenta/seguridad");
        assertThat(heading()).isEqualTo("Security");
        Chromium.screenshot(browser, "idioma-en-seguridad");
        browser.get(base() + "/cuenta/aplicaciones");
        assertThat(heading()).isEqualTo("My applications");
        Chromium.screenshot(browser, "idioma-en-aplicaciones");

        // logged out, the login page keeps the language; switched, it is Spanish again
        Chromium.submit(browser, By.cssSelector("form[action='/logout'] button"));
        browser.get(base() + "/login/");
        assertThat(heading()).isEqualTo("Log in");
        switchLanguage("Español");
        assertThat(heading()).isEqualTo("Iniciar sesión");
        assertThat(browser.findElement(By.cssSelector("#login-form button[type=submit]")).getText()).isEqualTo("Entrar");
        Chromium.screenshot(browser, "idioma-es-login");
    }
}
