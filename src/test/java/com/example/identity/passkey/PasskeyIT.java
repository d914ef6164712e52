package com.example.identity.passkey;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.openqa.selenium.virtualauthenticator.HasVirtualAuthenticator;
import org.openqa.selenium.virtualauthenticator.VirtualAuthenticator;
import org.openqa.selenium.virtualauthenticator.VirtualAuthenticatorOptions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.mfa.TotpCodes;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.Chromium;
import com.example.identity.support.NeedsChromium;
import com.example.identity.support.MailFiles;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;
import com.nimbusds.jwt.JWTParser;

/**
 * Passkeys (decisions §17) in headless Chromium with a virtual authenticator (Selenium's
 * {@link VirtualAuthenticator}: CTAP2, a platform authenticator with resident keys and user verification):
 * register one at {@code /cuenta/seguridad}, log out, log in with it (also from an authorization request,
 * whose id_token then says {@code amr: ["hwk", "mfa"]}), remove it. The issuer is the test's own address, since a
 * passkey is bound to its origin. Not a {@code *BrowserIT}: it also runs against PostgreSQL in CI (the
 * credentials are rows of Spring Security's JDBC repositories); without Chromium it is skipped like the
 * browser tests (and fails with {@code IDENTITY_BROWSER_TESTS=required}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
@NeedsChromium
class PasskeyIT {

    static final int PORT = freePort();
    static final String BASE = "http://localhost:" + PORT;

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        registry.add("server.port", () -> PORT);
        registry.add("identity.issuer", () -> BASE);
    }

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    SecondFactors factors;

    WebDriver browser;

    @BeforeEach
    void start() {
        browser = Chromium.start();
        ((HasVirtualAuthenticator) browser).addVirtualAuthenticator(new VirtualAuthenticatorOptions()
                .setProtocol(VirtualAuthenticatorOptions.Protocol.CTAP2)
                .setTransport(VirtualAuthenticatorOptions.Transport.INTERNAL)
                .setHasResidentKey(true)
                .setHasUserVerification(true)
                .setIsUserVerified(true));
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    void passwordLogin(String email) {
        browser.get(BASE + "/login/");
        browser.findElement(By.id("username")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("correct-password-123");
        Chromium.submit(browser, By.cssSelector("#login-form button[type=submit]"));
    }

    void passkeyLogin() {
        var wait = new WebDriverWait(browser, Duration.ofSeconds(15))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("passkey-login"))).click();
        wait.until(d -> !d.getCurrentUrl().startsWith(BASE + "/login/")
                || d.findElement(By.id("passkey-error")).isDisplayed());
    }

    @Test
    void aUserRegistersAPasskeyLogsInWithItAndRemovesIt() throws Exception {
        String email = "llave-" + UUID.randomUUID() + "@example.com";
        accounts.create("Lola", email, "correct-password-123", Role.USER);
        var otherSession = new WebClient(BASE);
        assertThat(otherSession.login(email, "correct-password-123").statusCode()).isEqualTo(302);
        passwordLogin(email);

        browser.get(BASE + "/cuenta/seguridad");
        browser.findElement(By.id("passkey-label")).sendKeys("Portátil");
        browser.findElement(By.cssSelector("#passkey-register-form button[type=submit]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(ExpectedConditions.urlContains("llave=nueva"));
        assertThat(browser.findElement(By.id("passkeys-table")).getText()).contains("Portátil");
        Chromium.screenshot(browser, "cuenta-llaves");
        assertThat(jdbc.queryForObject("select count(*) from user_credentials c join user_entities u "
                + "on u.id = c.user_entity_user_id where u.name = ?", Integer.class, email)).isEqualTo(1);
        // a new way into the account ends the other sessions, as a password change does
        assertThat(otherSession.get("/cuenta/").statusCode()).isEqualTo(302);
        assertThat(WebClient.location(otherSession.get("/cuenta/"))).startsWith("/login/");
        // and the address is told
        assertThat(MailFiles.text(MailFiles.newest(email, "Se ha añadido un segundo factor a tu cuenta")))
                .contains("Se ha añadido una llave de acceso a tu cuenta " + email);
        browser.get(BASE + "/cuenta/");
        assertThat(browser.findElement(By.id("account-email")).getText()).as("this session stays").isEqualTo(email);

        // a new browser session: the login page's passkey button, without a password
        browser.manage().deleteAllCookies();
        browser.get(BASE + "/login/");
        Chromium.screenshot(browser, "login-llave");
        passkeyLogin();
        browser.get(BASE + "/cuenta/");
        assertThat(browser.findElement(By.id("account-email")).getText()).isEqualTo(email);

        // from an application: the authorization request, the login page, the passkey, the code
        var app = firstPartyApp();
        browser.manage().deleteAllCookies();
        browser.get(BASE + "/oauth/authorize.php?response_type=code&client_id=" + app.clientId() + "&redirect_uri="
                + app.redirectUri() + "&scope=openid&state=s&nonce=n");
        assertThat(browser.getCurrentUrl()).startsWith(BASE + "/login/");
        passkeyLogin();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("code="));
        String code = UriComponentsBuilder.fromUriString(browser.getCurrentUrl()).build().getQueryParams().getFirst("code");
        var tokens = new WebClient(BASE).postForm("/oauth/token.php", OAuthForms.codeExchange(app, code));
        assertThat(tokens.statusCode()).isEqualTo(200);
        var claims = JWTParser.parse(ApiAssertions.json(tokens).get("id_token").asString()).getJWTClaimsSet();
        // user verification is required: the device and its fingerprint, face or PIN, two factors in one
        assertThat(claims.getStringListClaim("amr")).isEqualTo(List.of("hwk", "mfa"));
        assertThat(claims.getStringClaim("acr")).isEqualTo("mfa");
        assertThat(claims.getSubject()).isEqualTo("user:" + accounts.findByEmail(email).orElseThrow().getId());

        // removed: gone from the page, and it logs in no more
        browser.get(BASE + "/cuenta/seguridad");
        Chromium.submit(browser, By.cssSelector("#passkeys-table .remove-passkey-form button"));
        assertThat(browser.getCurrentUrl()).endsWith("/cuenta/seguridad?llave=eliminada");
        assertThat(browser.findElements(By.id("passkeys-table"))).isEmpty();
        browser.manage().deleteAllCookies();
        browser.get(BASE + "/login/");
        passkeyLogin();
        assertThat(browser.findElement(By.id("passkey-error")).isDisplayed()).isTrue();
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event in ('PASSKEY_ADDED', "
                + "'PASSKEY_REMOVED') and actor = ?", Integer.class, email)).isEqualTo(2);
    }

    @Test
    void aPasskeyIsTheSecondFactorOfAPasswordLogin() throws Exception {
        String email = "dos-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Dani", email, "correct-password-123", Role.USER).getId();
        passwordLogin(email);
        browser.get(BASE + "/cuenta/seguridad");
        browser.findElement(By.id("passkey-label")).sendKeys("Móvil");
        browser.findElement(By.cssSelector("#passkey-register-form button[type=submit]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(ExpectedConditions.urlContains("llave=nueva"));
        // TOTP on: a password login now waits for a second factor, and the passkey is one
        String secret = factors.newSecret();
        assertThat(factors.enable(id, secret, TotpCodes.now(secret, 0))).hasSize(10);

        var app = firstPartyApp();
        browser.manage().deleteAllCookies();
        browser.get(BASE + "/oauth/authorize.php?response_type=code&client_id=" + app.clientId() + "&redirect_uri="
                + app.redirectUri() + "&scope=openid&state=s&nonce=n");
        browser.findElement(By.id("username")).sendKeys(email);
        browser.findElement(By.id("password")).sendKeys("correct-password-123");
        Chromium.submit(browser, By.cssSelector("#login-form button[type=submit]"));
        assertThat(browser.getCurrentUrl()).isEqualTo(BASE + "/login/segundo-paso");
        Chromium.screenshot(browser, "segundo-paso-llave");
        new WebDriverWait(browser, Duration.ofSeconds(15))
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("passkey-login"))).click();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(ExpectedConditions.urlContains("code="));
        String code = UriComponentsBuilder.fromUriString(browser.getCurrentUrl()).build().getQueryParams().getFirst("code");
        var tokens = new WebClient(BASE).postForm("/oauth/token.php", OAuthForms.codeExchange(app, code));
        var claims = JWTParser.parse(ApiAssertions.json(tokens).get("id_token").asString()).getJWTClaimsSet();
        assertThat(claims.getStringListClaim("amr")).containsExactly("pwd", "hwk", "mfa");
    }

    @Test
    void aPasskeyLoginGivesAnApplicationThatDemandsASecondFactorItsCode() throws Exception {
        String email = "acr-llave-" + UUID.randomUUID() + "@example.com";
        accounts.create("Luz", email, "correct-password-123", Role.USER);
        passwordLogin(email);
        browser.get(BASE + "/cuenta/seguridad");
        browser.findElement(By.id("passkey-label")).sendKeys("Llavero");
        browser.findElement(By.cssSelector("#passkey-register-form button[type=submit]")).click();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(ExpectedConditions.urlContains("llave=nueva"));

        // no TOTP: the passkey is the account's only second factor, and the login's only factor
        var app = firstPartyApp();
        browser.manage().deleteAllCookies();
        browser.get(BASE + "/oauth/authorize.php?response_type=code&client_id=" + app.clientId() + "&redirect_uri="
                + app.redirectUri() + "&scope=openid&state=s&nonce=n&acr_values=mfa");
        assertThat(browser.getCurrentUrl()).startsWith(BASE + "/login/");
        passkeyLogin();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("code="));
        assertThat(browser.getCurrentUrl()).startsWith(app.redirectUri() + "?code=");
        String code = UriComponentsBuilder.fromUriString(browser.getCurrentUrl()).build().getQueryParams().getFirst("code");
        var tokens = new WebClient(BASE).postForm("/oauth/token.php", OAuthForms.codeExchange(app, code));
        var claims = JWTParser.parse(ApiAssertions.json(tokens).get("id_token").asString()).getJWTClaimsSet();
        assertThat(claims.getStringListClaim("amr")).containsExactly("hwk", "mfa");
        assertThat(claims.getStringClaim("acr")).isEqualTo("mfa");
    }

    ClientService.NewCredentials firstPartyApp() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var app = clients.register(owner, "Sitio", "https://app.example/cb/" + UUID.randomUUID());
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new Caller(admin, true), app.clientId(), true);
        return app;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
