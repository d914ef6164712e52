package com.example.identity.sanctions;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.FirstParty;
import com.example.identity.support.MovableClock;

/**
 * Sanctions in headless Chromium (decisions §26): an admin suspends a player everywhere for a month from the admin
 * page's "Sanciones" link, the player's login says why and until when (in Spanish and in English), the admin lifts it
 * and the player logs in; a game's owner bans a cheater from their game for a week from the developer dashboard, a
 * refused form shown again with the field's message. Screenshots under {@code target/screenshots/}:
 * {@code sanciones-admin}, {@code login-suspendida}, {@code login-suspended-en}, {@code sanciones-levantada},
 * {@code sanciones-desarrollador}, {@code sanciones-error}, {@code sanctions-en}.
 */
class SanctionsBrowserIT extends BrowserTest {

    static final String PASSWORD = "browser-password-44";

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    MovableClock clock;

    String person(Role role, String name) {
        String email = "sancion-" + UUID.randomUUID() + "@example.com";
        accounts.create(name, email, PASSWORD, role);
        return email;
    }

    void logOut() {
        browser.manage().deleteAllCookies();
    }

    @Test
    void anAdminSuspendsAPlayerEverywhereForAMonthThePlayerSeesWhyAndUntilWhenAndTheLiftLetsThemIn() {
        String admin = person(Role.ADMIN, "Ada");
        String player = person(Role.USER, "Jugadora");
        long playerId = accounts.findByEmail(player).orElseThrow().getId();
        logIn(admin, PASSWORD);
        browser.get(base() + "/dashboard/admin.php?q=" + player);
        Chromium.submit(browser, By.cssSelector("tr[data-user-id='" + playerId + "'] .sanctions-link"));
        assertThat(browser.getCurrentUrl()).endsWith("/dashboard/sanciones?usuario_id=" + playerId);
        assertThat(browser.findElement(By.id("sanction-user")).getAttribute("value")).isEqualTo(Long.toString(playerId));
        assertThat(browser.findElement(By.id("sanctions-none")).getText()).isEqualTo("No hay sanciones.");

        browser.findElement(By.id("sanction-reason")).sendKeys("Acoso a otros jugadores");
        new Select(browser.findElement(By.id("sanction-duration"))).selectByValue("P30D");
        Instant placedAt = clock.instant();
        Chromium.submit(browser, By.cssSelector("#sanction-form button[type=submit]"));

        assertThat(browser.findElement(By.id("notice")).getText()).matches("Sanción #\\d+ impuesta\\.");
        String row = browser.findElement(By.cssSelector("#sanctions-table tbody tr")).getText();
        assertThat(row).contains(player).contains("Todas").contains("Acoso a otros jugadores").contains("En vigor")
                .contains(SanctionService.WHEN.format(placedAt.plus(Duration.ofDays(30))).substring(0, 10));
        Chromium.screenshot(browser, "sanciones-admin");

        logOut();
        logIn(player, PASSWORD);
        assertThat(browser.getCurrentUrl()).endsWith("/login/?suspendida=1");
        String notice = browser.findElement(By.id("suspended")).getText();
        assertThat(notice).startsWith("Tu cuenta está suspendida hasta el " + SanctionService.WHEN.format(
                placedAt.plus(Duration.ofDays(30))).substring(0, 10)).contains("Motivo: Acoso a otros jugadores");
        Chromium.screenshot(browser, "login-suspendida");

        logOut();
        browser.get(base() + "/login/?lang=en");
        submitLoginForm(player, PASSWORD);
        assertThat(browser.findElement(By.id("suspended")).getText()).startsWith("Your account is suspended until ")
                .contains("Reason: Acoso a otros jugadores");
        Chromium.screenshot(browser, "login-suspended-en");

        logOut();
        logIn(admin, PASSWORD);
        browser.get(base() + "/dashboard/sanciones?usuario_id=" + playerId);
        Chromium.submitConfirming(browser, By.cssSelector("#sanctions-table .lift-form button[type=submit]"));
        assertThat(browser.findElement(By.id("notice")).getText()).isEqualTo("Sanción levantada.");
        assertThat(browser.findElement(By.cssSelector("#sanctions-table .sanction-state")).getText()).isEqualTo("Levantada");
        assertThat(browser.findElements(By.cssSelector("#sanctions-table .lift-form"))).isEmpty();
        Chromium.screenshot(browser, "sanciones-levantada");

        logOut();
        logIn(player, PASSWORD);
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/");
    }

    @Test
    void aGamesOwnerBansACheaterFromTheirGameForAWeekFromTheDeveloperDashboard() {
        String owner = person(Role.DEVELOPER_API, "Diego");
        long ownerId = accounts.findByEmail(owner).orElseThrow().getId();
        var game = FirstParty.register(clients, ownerId, "Carreras", "https://carreras.example/cb");
        long cheater = accounts.findByEmail(person(Role.USER, "Tramposo")).orElseThrow().getId();
        logIn(owner, PASSWORD);
        browser.get(base() + "/dashboard/developer.php");
        Chromium.submit(browser, By.id("sanctions-link"));
        assertThat(browser.getCurrentUrl()).endsWith("/dashboard/sanciones");
        assertThat(new Select(browser.findElement(By.id("sanction-client"))).getOptions())
                .extracting(o -> o.getAttribute("value")).containsExactly(game.clientId());

        // an account that does not exist: the page again, the field's message, what was typed kept
        browser.findElement(By.id("sanction-user")).sendKeys("999999999");
        browser.findElement(By.id("sanction-reason")).sendKeys("Uso de trampas");
        Chromium.submit(browser, By.cssSelector("#sanction-form button[type=submit]"));
        assertThat(browser.findElement(By.id("sanction-user-error")).getText()).isEqualTo("Usuario no encontrado");
        assertThat(browser.findElement(By.id("sanction-reason")).getAttribute("value")).isEqualTo("Uso de trampas");
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
                "document.getElementById('sanction-new').scrollIntoView()");
        Chromium.screenshot(browser, "sanciones-error");

        browser.findElement(By.id("sanction-user")).clear();
        browser.findElement(By.id("sanction-user")).sendKeys(Long.toString(cheater));
        new Select(browser.findElement(By.id("sanction-duration"))).selectByValue("P7D");
        Instant placedAt = clock.instant();
        Chromium.submit(browser, By.cssSelector("#sanction-form button[type=submit]"));
        assertThat(browser.findElement(By.id("notice")).getText()).matches("Sanción #\\d+ impuesta\\.");
        String row = browser.findElement(By.cssSelector("#sanctions-table tbody tr")).getText();
        assertThat(row).contains("#" + cheater).contains("Carreras").contains("Uso de trampas").contains("En vigor")
                .contains(SanctionService.WHEN.format(placedAt.plus(Duration.ofDays(7))).substring(0, 10));
        Chromium.screenshot(browser, "sanciones-desarrollador");

        browser.get(base() + "/dashboard/sanciones?lang=en");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Sanctions");
        assertThat(browser.findElement(By.cssSelector("#sanctions-table .sanction-state")).getText()).isEqualTo("In force");
        Chromium.screenshot(browser, "sanctions-en");
    }
}
