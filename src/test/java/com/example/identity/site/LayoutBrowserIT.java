package com.example.identity.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;

/**
 * The dashboards and the home page at 1280 px, as a person sees them in Chromium, with long values in their tables:
 * every table fits its card (no column or button hidden behind a horizontal scroll, no header cut), every revoke
 * button is inside its card and on its row's line of text, the developer dashboard's code examples are closed until
 * opened, and the logged-in home page links to the account pages. Screenshots {@code target/screenshots/layout-*.png}.
 */
class LayoutBrowserIT extends BrowserTest {

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    ApiTokenService tokens;

    static final String PASSWORD = "a-long-enough-password-1";

    /** An account of {@code role} with a long address, long-named applications and tokens: the widest rows. */
    private String accountWithLongRows(Role role) {
        String email = "a-rather-long-address-" + UUID.randomUUID() + "@subdomain.example.com";
        long id = accounts.create("Maximiliano", email, PASSWORD, role).getId();
        clients.register(id, "Una aplicación con un nombre bastante largo",
                "https://a-long-host-name.example.com/oauth/callback/with/a/long/path",
                List.of("https://a-long-host-name.example.com/after/logout/one", "https://a-long-host-name.example.com/bye"),
                ClientType.WEB);
        clients.register(id, "Lanzador", "http://127.0.0.1/callback", List.of(), ClientType.NATIVE);
        tokens.createPersonal(id, "Un token de gestión con nombre largo", TokenScope.fromValue("gestion").orElseThrow());
        tokens.createPersonal(id, "juego", TokenScope.fromValue("perfil").orElseThrow());
        return email;
    }

    private void at1280() {
        browser.manage().window().setSize(new Dimension(1280, 1000));
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(script, args);
    }

    /** The table fits its card: nothing to scroll sideways, and each of its buttons inside the card's box. */
    private void fitsItsCard(String tableId) {
        WebElement table = browser.findElement(By.id(tableId));
        @SuppressWarnings("unchecked")
        Map<String, Object> box = (Map<String, Object>) js("""
                const table = arguments[0], wrap = table.closest('.table-wrap'), card = table.closest('.card');
                const c = card.getBoundingClientRect();
                const outside = [...table.querySelectorAll('button')].filter(b => {
                  const r = b.getBoundingClientRect();
                  return r.left < c.left || r.right > c.right;
                }).map(b => b.textContent.trim());
                const cut = [...table.querySelectorAll('th')].filter(th => th.scrollWidth > th.clientWidth + 1)
                  .map(th => th.textContent.trim());
                return { scroll: wrap.scrollWidth - wrap.clientWidth, tableRight: table.getBoundingClientRect().right,
                  cardRight: c.right, outside: outside, cut: cut, buttons: table.querySelectorAll('button').length };
                """, table);
        assertThat(((Number) box.get("scroll")).intValue()).as(tableId + ": sideways scroll in its card").isLessThanOrEqualTo(1);
        assertThat(((Number) box.get("tableRight")).doubleValue()).as(tableId + ": right edge")
                .isLessThanOrEqualTo(((Number) box.get("cardRight")).doubleValue());
        assertThat((List<?>) box.get("outside")).as(tableId + ": buttons outside the card").isEmpty();
        assertThat((List<?>) box.get("cut")).as(tableId + ": headers cut").isEmpty();
        assertThat(((Number) box.get("buttons")).intValue()).as(tableId + ": has buttons to check").isPositive();
    }

    /** Each row's revoke button sits on the row's line of text: its label's middle within 3 px of the first cell's. */
    private void buttonsOnTheirRowsLine(String tableId) {
        @SuppressWarnings("unchecked")
        List<Number> offsets = (List<Number>) js("""
                return [...arguments[0].querySelectorAll('tbody tr')].filter(tr => tr.querySelector('button.danger'))
                  .map(tr => {
                    const range = document.createRange();
                    range.selectNodeContents(tr.cells[0]);
                    const text = range.getClientRects()[0];
                    const button = tr.querySelector('button.danger').getBoundingClientRect();
                    return Math.abs((button.top + button.bottom) / 2 - (text.top + text.bottom) / 2);
                  });
                """, browser.findElement(By.id(tableId)));
        assertThat(offsets).as(tableId + ": rows with a revoke button").isNotEmpty();
        assertThat(offsets).as(tableId + ": button off its row's text by (px)").allMatch(o -> o.doubleValue() <= 3);
    }

    @Test
    void theAdminDashboardsTablesFitTheirCardsWithEveryButtonInView() {
        String admin = accountWithLongRows(Role.ADMIN);
        at1280();
        logIn(admin, PASSWORD);
        browser.get(base() + "/dashboard/admin.php");
        Chromium.screenshot(browser, "layout-admin");
        for (String table : List.of("users-table", "all-tokens-table", "all-clients-table")) {
            fitsItsCard(table);
        }
        buttonsOnTheirRowsLine("all-tokens-table");
        buttonsOnTheirRowsLine("all-clients-table");
        browser.findElement(By.id("all-clients-table")).getLocation(); // scrolled into view for the screenshot
        js("document.getElementById('all-clients-table').scrollIntoView()");
        Chromium.screenshot(browser, "layout-admin-applications");
    }

    @Test
    void theDeveloperDashboardKeepsItsCodeExamplesClosedAndItsTablesInTheirCards() {
        String developer = accountWithLongRows(Role.DEVELOPER_API);
        at1280();
        logIn(developer, PASSWORD);
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/dashboard/developer.php"));
        Chromium.screenshot(browser, "layout-developer");
        fitsItsCard("tokens-table");
        fitsItsCard("clients-table");
        buttonsOnTheirRowsLine("tokens-table");

        // every code example is in a closed <details>: nothing of it takes room until it is opened
        @SuppressWarnings("unchecked")
        List<String> open = (List<String>) js("""
                return [...document.querySelectorAll('pre')].filter(pre => pre.checkVisibility())
                  .map(pre => pre.querySelector('code') ? pre.querySelector('code').id || pre.className : pre.className);
                """);
        assertThat(open).as("code examples shown open").isEmpty();
        long closed = ((Number) js("return document.documentElement.scrollHeight")).longValue();
        long opened = ((Number) js("""
                const all = [...document.querySelectorAll('details')], was = all.map(d => d.open);
                all.forEach(d => d.open = true);
                const height = document.documentElement.scrollHeight;
                all.forEach((d, i) => d.open = was[i]);
                return height;
                """)).longValue();
        System.out.printf("developer dashboard at 1280 px: %d px tall, %d px with every example open%n", closed, opened);
        assertThat(closed).as("the page's height at 1280 px, examples closed").isLessThan(opened - 1500);

        WebElement node = browser.findElement(By.id("node-config"));
        assertThat(node.isDisplayed()).isFalse();
        WebElement summary = node.findElement(By.xpath("ancestor::details[1]/summary"));
        js("arguments[0].scrollIntoView()", summary);
        summary.click();
        assertThat(node.isDisplayed()).as("opened by its summary").isTrue();
        Chromium.screenshot(browser, "layout-developer-example-open");
    }

    @Test
    void theHomePageOfSomeoneLoggedInLinksToTheAccountPages() {
        String email = "home-" + UUID.randomUUID() + "@example.com";
        accounts.create("Olga", email, PASSWORD, Role.USER);
        at1280();
        logIn(email, PASSWORD);
        browser.get(base() + "/");
        Chromium.screenshot(browser, "layout-home");
        for (var link : Map.of("home-account", "/cuenta/", "home-security", "/cuenta/seguridad", "home-applications",
                "/cuenta/aplicaciones").entrySet()) {
            WebElement a = browser.findElement(By.id(link.getKey()));
            assertThat(a.isDisplayed()).as(link.getKey()).isTrue();
            assertThat(a.getAttribute("href")).isEqualTo(base() + link.getValue());
            assertThat(a.findElement(By.xpath("ancestor::section")).getAttribute("class")).contains("card");
        }
        browser.findElement(By.id("home-security")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/cuenta/seguridad"));
    }
}
