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

import com.example.identity.support.ApiAssertions;
import com.example.identity.support.BrowserTest;
import com.example.identity.support.Chromium;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;

/**
 * A developer who has never seen the service, in headless Chromium: logs in, makes a token and uses
 * it, registers an application and completes a code flow with it, rotates its secret, revokes it.
 * Screenshots of each page go to {@code target/screenshots/}.
 */
class DashboardBrowserIT extends BrowserTest {

    void login(String email, String password) {
        logIn(email, password);
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(driver -> !driver.getCurrentUrl().contains("/login/"));
    }

    @Test
    void developerMakesTokenRegistersApplicationRotatesAndRevokesIt() {
        login("dev@example.com", "dev-demo-password");
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/dashboard/developer.php");
        Chromium.screenshot(browser, "dashboard");

        // a token, shown once, that works at /api/userinfo.php
        browser.findElement(By.id("token-name")).sendKeys("Juego de prueba");
        Chromium.submit(browser, By.cssSelector("#token-form button[type=submit]"));
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
        Chromium.submit(browser, By.cssSelector("#client-form button[type=submit]"));
        assertThat(browser.findElement(By.id("client-redirect-error")).getText()).contains("https");
        Chromium.screenshot(browser, "dashboard-client-error");

        // an application, credentials shown once
        String redirectUri = base() + "/callback-de-prueba";
        browser.findElement(By.id("client-name")).clear();
        browser.findElement(By.id("client-name")).sendKeys("Mi sitio web");
        browser.findElement(By.id("client-redirect")).clear();
        browser.findElement(By.id("client-redirect")).sendKeys(redirectUri);
        Chromium.submit(browser, By.cssSelector("#client-form button[type=submit]"));
        String clientId = browser.findElement(By.id("client-id")).getText();
        String secret = browser.findElement(By.id("client-secret")).getText();
        assertThat(secret).matches("[0-9a-f]{64}");
        assertThat(browser.findElement(By.id("discovery-url")).getText())
                .endsWith("/.well-known/openid-configuration");
        assertThat(browser.findElement(By.id("spring-config")).getAttribute("textContent")).contains("client-id: " + clientId);
        // the discovery-based help for Node (openid-client) and Python (Authlib) names this application too,
        // with the issuer of the discovery URL above
        String issuer = browser.findElement(By.id("discovery-url")).getText().replace("/.well-known/openid-configuration", "");
        assertThat(browser.findElement(By.id("node-config")).getAttribute("textContent"))
                .contains("client.discovery(new URL('" + issuer + "'), '" + clientId + "'")
                .contains("redirect_uri: '" + redirectUri + "'");
        assertThat(browser.findElement(By.id("python-config")).getAttribute("textContent"))
                .contains("client_id='" + clientId + "'")
                .contains("server_metadata_url='" + issuer + "/.well-known/openid-configuration'")
                .contains("authorize_redirect('" + redirectUri + "')");
        Chromium.screenshot(browser, "dashboard-new-client");

        // a code flow with it, in the same browser session
        String code = authorize(clientId, redirectUri);
        var tokens = new WebClient(port).postForm("/oauth/token.php", OAuthForms.codeExchange(code, redirectUri, clientId, secret));
        assertThat(tokens.statusCode()).isEqualTo(200);
        assertThat(ApiAssertions.json(tokens).has("id_token")).isTrue();
        String accessToken = ApiAssertions.json(tokens).get("access_token").asString();
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + accessToken).statusCode())
                .isEqualTo(200);

        // the consent given above is listed on the account page
        browser.get(base() + "/cuenta/aplicaciones");
        assertThat(browser.findElement(By.cssSelector("#consents-table tr[data-client-id='" + clientId + "']")).getText())
                .contains("Mi sitio web").contains("Tu dirección de correo electrónico");
        Chromium.screenshot(browser, "cuenta-aplicaciones");

        // rotate: the old secret is refused, the new one works
        browser.get(base() + "/dashboard/developer.php");
        Chromium.submitConfirming(browser, By.cssSelector("tr[data-client-id='" + clientId + "'] .rotate-form button"));
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
        Chromium.submitConfirming(browser, By.cssSelector("tr[data-client-id='" + clientId + "'] .revoke-form button"));
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
    void aDeveloperRegistersAGameLauncherAsANativeApplication() {
        login("dev@example.com", "dev-demo-password");
        browser.get(base() + "/dashboard/developer.php");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("client-type"))).selectByValue("nativa");
        browser.findElement(By.id("client-name")).sendKeys("Lanzador del juego");
        browser.findElement(By.id("client-redirect")).sendKeys("http://127.0.0.1/callback");
        Chromium.submit(browser, By.cssSelector("#client-form button[type=submit]"));

        String clientId = browser.findElement(By.id("client-id")).getText();
        assertThat(clientId).isNotBlank();
        assertThat(browser.findElements(By.id("client-secret"))).as("a native application has no secret").isEmpty();
        assertThat(browser.findElement(By.id("native-example")).getText())
                .contains("client_id=" + clientId).contains("code_challenge_method=S256")
                .contains("-d client_id=" + clientId + " -d code_verifier=VERIFIER");
        Chromium.screenshot(browser, "dashboard-native-client");
    }

    @org.springframework.beans.factory.annotation.Autowired
    com.example.identity.client.ClientService clientService;

    /** Decisions §28: the form's two boxes make a launcher that requires pushed requests and DPoP-bound tokens. */
    @Test
    void aDeveloperRegistersALauncherThatRequiresPushedRequestsAndDPoP() {
        login("dev@example.com", "dev-demo-password");
        browser.get(base() + "/dashboard/developer.php");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("client-type"))).selectByValue("nativa");
        browser.findElement(By.id("client-name")).sendKeys("Lanzador con DPoP");
        browser.findElement(By.id("client-redirect")).sendKeys("http://127.0.0.1/callback");
        browser.findElement(By.id("client-par")).click();
        browser.findElement(By.id("client-dpop")).click();
        assertThat(browser.findElement(By.cssSelector("label[for=client-dpop]")).getText()).startsWith("Exigir DPoP");
        Chromium.screenshot(browser, "dashboard-par-dpop");
        Chromium.submit(browser, By.cssSelector("#client-form button[type=submit]"));

        String clientId = Chromium.find(browser, By.id("client-id")).getText();
        var registered = clientService.findByClientId(clientId).orElseThrow();
        assertThat(registered.requiresPushedRequests()).isTrue();
        assertThat(registered.requiresDPoP()).isTrue();
    }

    /** Registers an application of {@code type} in the dashboard; its client id, read from the box shown once. */
    String register(String type, String name, String redirectUri) {
        browser.get(base() + "/dashboard/developer.php");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("client-type"))).selectByValue(type);
        browser.findElement(By.id("client-name")).sendKeys(name);
        if (redirectUri != null) {
            browser.findElement(By.id("client-redirect")).sendKeys(redirectUri);
        }
        Chromium.submit(browser, By.cssSelector("#client-form button[type=submit]"));
        return Chromium.find(browser, By.id("client-id")).getText();
    }

    /**
     * A game server (decisions §21): registered without a redirect URI, its secret shown once with the client
     * credentials example; the secret read off the page gets a token; the help stays after a reload.
     */
    @Test
    void aGameServerGetsItsSecretOnceAndItsOwnHelp() {
        login("dev@example.com", "dev-demo-password");
        String server = register("servidor", "Servidor de partidas", null);

        String secret = browser.findElement(By.id("client-secret")).getText();
        assertThat(browser.findElement(By.cssSelector("#server-help .server-example")).getText())
                .containsPattern("curl -s -u " + server + ":TU_CLIENT_SECRET \\S+/oauth/token.php -d grant_type=client_credentials")
                .containsPattern("-H \"Authorization: Bearer TOKEN_DEL_SERVIDOR\" \\S+/oauth/introspect.php -d token=")
                // the tickets its owner's games get for it (decisions §25), and how it checks them offline
                .contains("-d grant_type=urn:ietf:params:oauth:grant-type:token-exchange -d audience=" + server)
                .contains("typ = ticket+jwt").contains("aud = " + server)
                .contains("guarda cada jti aceptado hasta su exp");
        assertThat(browser.findElement(By.cssSelector("#server-help .server-tickets")).getText())
                .containsPattern("un JWT typ ticket\\+jwt que comprueba con las claves de \\S+/oauth/jwks.json; guarda cada jti");
        Chromium.screenshot(browser, "dashboard-server-new");
        var granted = new WebClient(port).postForm("/oauth/token.php", java.util.Map.of("grant_type", "client_credentials",
                "client_id", server, "client_secret", secret));
        assertThat(granted.statusCode()).as(granted.body()).isEqualTo(200);
        assertThat(granted.body()).startsWith("{\"access_token\":\"").endsWith("\"token_type\":\"Bearer\",\"expires_in\":3600}");

        browser.get(base() + "/dashboard/developer.php");
        By row = By.cssSelector("tr[data-client-id='" + server + "']");
        assertThat(browser.findElement(row).findElements(By.cssSelector(".rotate-form"))).as("it has a secret").hasSize(1);
        browser.findElement(row).findElement(By.cssSelector(".connect-link")).click();
        var help = browser.findElement(By.id("app-help-" + server));
        new WebDriverWait(browser, Duration.ofSeconds(5)).until(d -> help.getAttribute("open") != null);
        assertThat(help.getAttribute("data-client-type")).isEqualTo("servidor");
        assertThat(help.findElement(By.tagName("summary")).getText())
                .isEqualTo("Cómo conectar «Servidor de partidas» (servidor de juego)");
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView()", help);
        Chromium.screenshot(browser, "dashboard-server-help");
    }

    @Test
    void eachNativeAndDeviceApplicationKeepsItsOwnHelpAfterAReload() {
        login("dev@example.com", "dev-demo-password");
        String launcher = register("nativa", "Lanzador duradero", "http://127.0.0.1/vuelta");
        String console = register("dispositivo", "Consola duradera", null);
        String web = register("web", "Web duradera", base() + "/vuelta-web-" + System.nanoTime());

        // a reload: the boxes shown once are gone, each application's own help stays
        browser.get(base() + "/dashboard/developer.php");
        assertThat(browser.findElements(By.id("new-client-box"))).isEmpty();

        // the launcher's row: no "Rotar secreto" (it has no secret); its "Cómo conectar" opens its help
        By launcherRow = By.cssSelector("tr[data-client-id='" + launcher + "']");
        assertThat(browser.findElement(launcherRow).findElements(By.cssSelector(".rotate-form"))).isEmpty();
        browser.findElement(launcherRow).findElement(By.cssSelector(".connect-link")).click();
        var launcherHelp = browser.findElement(By.id("app-help-" + launcher));
        new WebDriverWait(browser, Duration.ofSeconds(5)).until(d -> launcherHelp.getAttribute("open") != null);
        assertThat(launcherHelp.getAttribute("data-client-type")).isEqualTo("nativa");
        assertThat(launcherHelp.findElement(By.tagName("summary")).getText())
                .isEqualTo("Cómo conectar «Lanzador duradero» (lanzador o aplicación nativa)");
        assertThat(launcherHelp.findElement(By.cssSelector(".native-example")).getText())
                .contains("client_id=" + launcher + "&redirect_uri=http://127.0.0.1/vuelta&scope=openid%20profile")
                .contains("code_challenge_method=S256")
                .contains("(en un puerto libre: http://127.0.0.1:PUERTO/vuelta)")
                .contains("-d client_id=" + launcher + " -d code_verifier=VERIFIER")
                .doesNotContain("client_secret");
        assertThat(launcherHelp.findElement(By.cssSelector("button[data-copy]")).getAttribute("data-copy"))
                .isEqualTo("#app-example-" + launcher);
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView()", launcherHelp);
        Chromium.screenshot(browser, "dashboard-native-help");

        // the console's: the polling loop with its client id
        By consoleRow = By.cssSelector("tr[data-client-id='" + console + "']");
        assertThat(browser.findElement(consoleRow).findElements(By.cssSelector(".rotate-form"))).isEmpty();
        browser.findElement(consoleRow).findElement(By.cssSelector(".connect-link")).click();
        var consoleHelp = browser.findElement(By.id("app-help-" + console));
        new WebDriverWait(browser, Duration.ofSeconds(5)).until(d -> consoleHelp.getAttribute("open") != null);
        assertThat(consoleHelp.getAttribute("data-client-type")).isEqualTo("dispositivo");
        assertThat(consoleHelp.findElement(By.cssSelector(".device-example")).getText())
                .contains("/oauth/device.php -d client_id=" + console + " -d scope=")
                .contains("-d device_code=\"$DEVICE_CODE\" -d client_id=" + console + ")")
                .contains("*slow_down*) interval=$((interval + 5)) ;;");
        assertThat(consoleHelp.findElement(By.cssSelector("button[data-copy]")).getAttribute("data-copy"))
                .isEqualTo("#app-example-" + console);
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView()", consoleHelp);
        Chromium.screenshot(browser, "dashboard-device-help");

        // the web site's help names a web application, never one without a secret; only it may rotate
        String springConfig = browser.findElement(By.id("spring-config")).getAttribute("textContent");
        assertThat(springConfig).doesNotContain(launcher).doesNotContain(console);
        assertThat(browser.findElements(By.cssSelector("tr[data-client-id='" + web + "'] .rotate-form"))).hasSize(1);
        assertThat(browser.findElement(By.cssSelector("tr[data-client-id='" + web + "'] .connect-link"))
                .getAttribute("href")).endsWith("#integration");
        assertThat(browser.findElements(By.id("app-help-" + web))).isEmpty();
    }

    @Test
    void aUserWithdrawsAConsentAtTheAccountPage() {
        login("dev@example.com", "dev-demo-password");
        // a third-party application, consented to in this browser, with a live token
        browser.get(base() + "/dashboard/developer.php");
        browser.findElement(By.id("client-name")).sendKeys("Juego de terceros");
        String redirectUri = base() + "/vuelta-" + System.nanoTime();
        browser.findElement(By.id("client-redirect")).sendKeys(redirectUri);
        Chromium.submit(browser, By.cssSelector("#client-form button[type=submit]"));
        String clientId = browser.findElement(By.id("client-id")).getText();
        String secret = browser.findElement(By.id("client-secret")).getText();
        var tokens = new WebClient(port).postForm("/oauth/token.php",
                OAuthForms.codeExchange(authorize(clientId, redirectUri), redirectUri, clientId, secret));
        String accessToken = ApiAssertions.json(tokens).get("access_token").asString();

        browser.get(base() + "/cuenta/aplicaciones");
        Chromium.submit(browser, By.cssSelector("tr[data-client-id='" + clientId + "'] .withdraw-form button"));

        assertThat(browser.findElement(By.id("consent-withdrawn")).getText()).isEqualTo("Permiso retirado.");
        assertThat(browser.findElements(By.cssSelector("tr[data-client-id='" + clientId + "']"))).isEmpty();
        Chromium.screenshot(browser, "cuenta-aplicaciones-retirada");
        assertThat(new WebClient(port).get("/api/userinfo.php", "Authorization", "Bearer " + accessToken).statusCode())
                .isEqualTo(401);
    }

    @org.springframework.beans.factory.annotation.Autowired
    com.example.identity.client.ClientService clients;

    @org.springframework.beans.factory.annotation.Autowired
    com.example.identity.account.AccountService accounts;

    @Test
    void aLogoutConfirmedOnThePageGoesBackToTheApplicationOnAnotherOrigin() {
        // the application's logout address is on another origin than the service (127.0.0.1, not localhost)
        String bye = "http://127.0.0.1:" + port + "/";
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var app = clients.register(owner, "Sitio con salida", "https://salida.example/cb", java.util.List.of(bye));
        login("dev@example.com", "dev-demo-password");

        browser.get(base() + "/oauth/logout.php?client_id=" + app.clientId() + "&post_logout_redirect_uri="
                + URLEncoder.encode(bye, StandardCharsets.UTF_8) + "&state=vuelta-1");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("¿Cerrar la sesión?");
        assertThat(browser.findElement(By.id("logout-back")).getText()).isEqualTo("Después volverás a " + bye + ".");
        Chromium.screenshot(browser, "logout-confirmar");
        Chromium.submit(browser, By.id("confirm-logout"));

        // Chromium applies the page's form-action to the redirect after the POST: it allows this origin
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().startsWith(bye));
        assertThat(browser.getCurrentUrl()).isEqualTo(bye + "?state=vuelta-1");
        browser.get(base() + "/dashboard/developer.php");
        assertThat(browser.getCurrentUrl()).as("the session ended").contains("/login/");
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
        Chromium.screenshot(browser, "admin");
        // the tests of this JVM share one database: the demo application may be past the first page of 50 (newest
        // first), and the search finds it wherever it is
        browser.get(base() + "/dashboard/admin.php?q=demo-app");
        assertThat(browser.findElement(By.id("all-clients-table")).getText()).contains("demo-app");
    }

    /** The authorization request in the browser's session; the code is read from where it lands. */
    String authorize(String clientId, String redirectUri) {
        browser.get(base() + "/oauth/authorize.php?response_type=code&client_id=" + clientId + "&redirect_uri="
                + URLEncoder.encode(redirectUri, StandardCharsets.UTF_8) + "&scope=openid%20email&state=st&nonce=n");
        String landed = browser.getCurrentUrl();
        if (landed.startsWith(base() + "/oauth/consent?")) {
            // an application a developer registered is third-party: its users are asked once (decisions §12.6)
            assertThat(browser.findElement(By.id("consent-client")).getText()).isNotBlank();
            assertThat(browser.findElements(By.cssSelector("#consent-scopes li")))
                    .extracting(e -> e.getAttribute("data-scope")).containsExactly("openid", "email");
            Chromium.screenshot(browser, "consent");
            Chromium.submit(browser, By.cssSelector("button[name=decision][value=allow]"));
            new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("?code="));
            landed = browser.getCurrentUrl();
        }
        assertThat(landed).startsWith(redirectUri + "?code=");
        return UriComponentsBuilder.fromUriString(landed).build().getQueryParams().getFirst("code");
    }

}
