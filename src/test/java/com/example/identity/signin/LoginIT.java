package com.example.identity.signin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

@IntegrationTest
class LoginIT {

    @LocalServerPort
    int port;

    @Test
    void loginPageIsSpanishFormWithCsrfAndCarriedRedirect() {
        var web = new WebClient(port);
        var page = web.get("/login/?redirect=/oauth/authorize.php%3Fclient_id%3Ddemo-app");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(page.body())
                .contains("<html lang=\"es\">")
                .contains("Iniciar sesión")
                .contains("name=\"username\"")
                .contains("name=\"password\"")
                .contains("<input type=\"hidden\" name=\"redirect\" value=\"/oauth/authorize.php?client_id=demo-app\">");
        assertThat(page.body().split("name=\"_csrf\"", -1)).hasSize(2);
    }

    @Test
    void loginWhenDeveloperWithoutRedirectThenDashboard() {
        var web = new WebClient(port);
        var response = web.login("dev@example.com", "dev-demo-password");

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo("/dashboard/developer.php");
        var dashboard = web.get("/dashboard/developer.php");
        assertThat(dashboard.statusCode()).isEqualTo(200);
        assertThat(dashboard.body()).contains("Panel de desarrollador").contains("Diego");
    }

    @Test
    void loginWhenEmailInOtherCaseThenSucceeds() {
        var web = new WebClient(port);
        var response = web.login("  Dev@Example.COM", "dev-demo-password");

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo("/dashboard/developer.php");
    }

    @Test
    void loginWhenPlainUserThenHome() {
        var web = new WebClient(port);
        var response = web.login("user@example.com", "user-demo-password");

        assertThat(WebClient.location(response)).isEqualTo("/");
        var home = web.get("/");
        assertThat(home.body()).contains("Lucía").contains("user@example.com").doesNotContain("dashboard-link");
        var refused = web.get("/dashboard/developer.php", "Accept", "text/html");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("<html lang=\"es\">").contains("Acceso denegado");
    }

    @Test
    void loginWhenLocalRedirectThenFollowsIt() {
        var web = new WebClient(port);
        var response = web.login("dev@example.com", "dev-demo-password", "/oauth/authorize.php?client_id=x&state=a%20b");

        assertThat(WebClient.location(response)).isEqualTo("/oauth/authorize.php?client_id=x&state=a%20b");
    }

    @org.springframework.beans.factory.annotation.Autowired
    com.example.identity.client.ClientService clients;

    @org.springframework.beans.factory.annotation.Autowired
    com.example.identity.account.AccountService accounts;

    @Test
    void longAuthorizationRequestSurvivesTheLoginRoundTrip() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        String redirectUri = "https://app.example/" + "p".repeat(1900);
        var client = clients.register(owner, "Long", redirectUri);
        String back = "/oauth/authorize.php?response_type=code&client_id=" + client.clientId() + "&state="
                + "s".repeat(1024) + "&nonce=" + "n".repeat(512) + "&redirect_uri="
                + java.net.URLEncoder.encode(redirectUri, java.nio.charset.StandardCharsets.UTF_8);
        var web = new WebClient(port);
        var toLogin = web.get(back);
        assertThat(WebClient.location(toLogin)).startsWith("/login/?redirect=%2Foauth%2Fauthorize.php");

        var login = web.login("dev@example.com", "dev-demo-password", back);

        assertThat(WebClient.location(login)).isEqualTo(back);
    }

    @ParameterizedTest
    @ValueSource(strings = { "//evil.example", "https://evil.example", "/\\evil.example", "javascript:alert(1)",
            "/\t/evil.example", "\\\\evil.example", "http:/evil.example", " /x", "" })
    void loginWhenUnsafeRedirectThenStaysOnThisOrigin(String redirect) {
        var web = new WebClient(port);
        var response = web.login("dev@example.com", "dev-demo-password", redirect);

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo("/dashboard/developer.php");
    }

    @Test
    void loginWhenWrongPasswordThenGenericErrorNoSessionAndSameRedirect() {
        var web = new WebClient(port);
        var response = web.login("dev@example.com", "wrong-password", "/dashboard/developer.php?x=1");

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo("/login/?error=1&redirect=%2Fdashboard%2Fdeveloper.php%3Fx%3D1");
        var form = web.get(WebClient.location(response));
        assertThat(form.body())
                .contains("Correo o contraseña incorrectos.")
                .contains("<input type=\"hidden\" name=\"redirect\" value=\"/dashboard/developer.php?x=1\">");
        assertThat(web.get("/dashboard/developer.php").statusCode()).isEqualTo(302);
    }

    @Test
    void loginWhenUnknownEmailThenSameAnswerAsWrongPassword() {
        var unknown = new WebClient(port).login("nobody@example.com", "whatever-password");
        var wrong = new WebClient(port).login("dev@example.com", "whatever-password");

        assertThat(unknown.statusCode()).isEqualTo(wrong.statusCode());
        assertThat(WebClient.location(unknown)).isEqualTo(WebClient.location(wrong));
    }

    @Test
    void loginChangesTheSessionId() {
        var web = new WebClient(port);
        String csrf = web.csrfFrom("/login/");
        String before = web.sessionId().orElseThrow();

        var response = web.postForm("/login/", Map.of("username", "dev@example.com",
                "password", "dev-demo-password", "_csrf", csrf));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(web.sessionId()).isPresent().get().isNotEqualTo(before);
    }

    @Test
    void loginWithoutCsrfTokenIsRefused() {
        var web = new WebClient(port);
        web.get("/login/");
        var response = web.postForm("/login/", Map.of("username", "dev@example.com", "password", "dev-demo-password"));

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(web.get("/dashboard/developer.php").statusCode()).isEqualTo(302);
    }

    @Test
    void loginWithWrongCsrfTokenIsRefused() {
        var web = new WebClient(port);
        web.get("/login/");
        var response = web.postForm("/login/", Map.of("username", "dev@example.com",
                "password", "dev-demo-password", "_csrf", "forged"));

        assertThat(response.statusCode()).isEqualTo(403);
    }

    @Test
    void dashboardWithoutSessionRedirectsToLoginWithWayBack() {
        var response = new WebClient(port).get("/dashboard/developer.php");

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo("/login/?redirect=%2Fdashboard%2Fdeveloper.php");
    }

    @Test
    void logoutEndsTheSession() {
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        String csrf = web.csrfFrom("/dashboard/developer.php");

        var response = web.postForm("/logout", Map.of("_csrf", csrf));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo("/login/?logout");
        assertThat(web.get("/dashboard/developer.php").statusCode()).isEqualTo(302);
    }

    @Test
    void homeSaysWhoIsLoggedInAndLinksDevelopersToDashboard() {
        var web = new WebClient(port);
        web.login("admin@example.com", "admin-demo-password");

        var home = web.get("/");
        assertThat(home.statusCode()).isEqualTo(200);
        assertThat(home.body()).contains("Ada").contains("admin@example.com").contains("id=\"dashboard-link\"");
    }

    /**
     * The login page of an authorization request lets its form end at that application's registered address
     * (browsers apply form-action to the redirects after the POST); any other login page keeps form-action
     * 'self' alone: an unregistered address, an unknown or revoked application, no authorization request.
     */
    @Test
    void theLoginPageOfAnAuthorizationRequestAllowsItsFormToEndAtTheApplication() {
        long dev = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(dev, "Sitio", "https://sitio.example:8443/cb");
        var web = new WebClient(port);
        java.util.function.Function<String, String> loginPageFor = redirectUri -> web.get("/login/?redirect="
                + java.net.URLEncoder.encode("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()
                        + "&redirect_uri=" + java.net.URLEncoder.encode(redirectUri, java.nio.charset.StandardCharsets.UTF_8),
                        java.nio.charset.StandardCharsets.UTF_8))
                .headers().firstValue("Content-Security-Policy").orElseThrow();

        assertThat(loginPageFor.apply("https://sitio.example:8443/cb")).isEqualTo("default-src 'self'; script-src 'self'; "
                + "style-src 'self'; img-src 'self' data:; form-action 'self' https://sitio.example:8443; "
                + "frame-ancestors 'none'; base-uri 'none'; object-src 'none'");
        String pages = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
        assertThat(loginPageFor.apply("https://evil.example/cb")).isEqualTo(pages);
        assertThat(web.get("/login/").headers().firstValue("Content-Security-Policy")).hasValue(pages);
        assertThat(web.get("/login/?redirect=%2Fdashboard%2Fdeveloper.php").headers()
                .firstValue("Content-Security-Policy")).hasValue(pages);
        assertThat(clients.revokeAs(new com.example.identity.account.Caller(dev, false), client.clientId())).isTrue();
        assertThat(loginPageFor.apply("https://sitio.example:8443/cb")).isEqualTo(pages);
    }
}
