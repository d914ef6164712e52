package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.support.IntegrationTest;
import com.example.identity.support.RawHttp;
import com.example.identity.support.WebClient;

/** Response headers of ASVS 5.0 V3 and RFC 9700 on the pages, the API and behind an HTTPS proxy. */
@IntegrationTest
class SecurityHeadersIT {

    @LocalServerPort
    int port;

    static void assertBrowserHeaders(HttpResponse<String> response) {
        assertThat(response.headers().firstValue("Content-Security-Policy")).isPresent().get().asString()
                .contains("frame-ancestors 'none'").contains("script-src 'self'").doesNotContain("unsafe-inline");
        assertThat(response.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(response.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/login/", "/", "/oauth/authorize.php?client_id=nope&response_type=code" })
    void pagesSendTheBrowserHeaders(String path) {
        assertBrowserHeaders(new WebClient(port).get(path));
    }

    @Test
    void authorizationRedirectSendsTheBrowserHeaders() {
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        var response = web.get("/oauth/authorize.php?response_type=code&client_id=demo-app"
                + "&redirect_uri=http%3A%2F%2Flocalhost%3A9000%2Fcallback&state=s");
        assertThat(response.statusCode()).isEqualTo(302);
        assertBrowserHeaders(response);
    }

    @Test
    void apiAnswersAreNotSniffedNorFramed() {
        var response = new WebClient(port).get("/api/userinfo.php");
        assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(response.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    }

    static void assertRestrictiveHeaders(String csp, String nosniff, String frameOptions) {
        assertThat(csp).isEqualTo("default-src 'none'; frame-ancestors 'none'");
        assertThat(nosniff).isEqualTo("nosniff");
        assertThat(frameOptions).isEqualTo("DENY");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/api/userinfo.php", "/api/tokens/list.php" })
    void apiAnswersAllowNothingToRunOrFrameThem(String path) {
        var response = new WebClient(port).get(path);
        assertThat(response.statusCode()).isEqualTo(401);
        assertRestrictiveHeaders(response.headers().firstValue("Content-Security-Policy").orElse(null),
                response.headers().firstValue("X-Content-Type-Options").orElse(null),
                response.headers().firstValue("X-Frame-Options").orElse(null));
    }

    @ParameterizedTest
    @ValueSource(strings = { "/no-such-page", "/dashboard/no-such-page.php", "/oauth/no-such-endpoint.php" })
    void errorPagesSendTheBrowserHeaders(String path) {
        // logged in, so that a protected path answers its own error page rather than a redirect to the login
        var web = new WebClient(port);
        assertThat(WebClient.location(web.login("dev@example.com", "dev-demo-password"))).doesNotStartWith("/login/");
        var response = web.get(path, "Accept", "text/html");
        assertThat(response.statusCode()).as("an error page, not a redirect").isEqualTo(404);
        assertThat(response.headers().firstValue("Location")).isEmpty();
        assertThat(response.body()).doesNotContain("Whitelabel").doesNotContain("Exception");
        assertThat(response.headers().firstValue("Content-Security-Policy")).isPresent().get().asString()
                .contains("frame-ancestors 'none'").doesNotContain("unsafe-inline");
        assertThat(response.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/login/", "/oauth/authorize.php", "/api/userinfo.php", "/oauth/token.php" })
    void rejectionsByTomcatItselfAllowNothingToRunOrFrameThem(String path) {
        var response = RawHttp.send(port, RawHttp.request("GET", path,
                ("X-Big: " + "x".repeat(20_000) + "\r\n").getBytes(StandardCharsets.ISO_8859_1), null));
        assertThat(response.status()).isBetween(400, 431);
        assertRestrictiveHeaders(response.headers().get("content-security-policy"),
                response.headers().get("x-content-type-options"), response.headers().get("x-frame-options"));
    }

    @Test
    void sessionCookieIsHttpOnlyAndSameSiteLaxAndNotSecureOverPlainHttp() {
        var response = new WebClient(port).get("/login/");
        String cookie = response.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).contains("HttpOnly").contains("SameSite=Lax").doesNotContain("Secure");
        assertThat(response.headers().firstValue("Strict-Transport-Security")).isEmpty();
    }

    @Test
    void behindAnHttpsProxyHstsIsSentAndTheCookieIsSecure() {
        var response = RawHttp.send(port, RawHttp.request("GET", "/login/",
                "X-Forwarded-Proto: https\r\nX-Forwarded-For: 203.0.113.9\r\n".getBytes(StandardCharsets.ISO_8859_1), null));
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.headers().get("strict-transport-security")).contains("max-age=");
        assertThat(response.headers().get("set-cookie")).contains("Secure").contains("HttpOnly");
    }

    @Test
    void oversizedHeadersAreRefusedInTheEndpointsShape() {
        String huge = "x".repeat(20_000);
        var response = RawHttp.send(port, RawHttp.request("GET", "/api/userinfo.php",
                ("X-Big: " + huge + "\r\n").getBytes(StandardCharsets.ISO_8859_1), null));
        assertThat(response.status()).isBetween(400, 431);
        assertThat(response.headers().get("content-type")).isEqualTo("application/json;charset=UTF-8");
        assertThat(response.body()).startsWith("{\"ok\":false,\"error\":");
    }

    @Test
    void oversizedFormBodyIsRefusedInTheEndpointsShape() {
        String body = "grant_type=authorization_code&code=" + "c".repeat(100_000);
        var response = RawHttp.send(port, RawHttp.request("POST", "/oauth/token.php",
                "Content-Type: application/x-www-form-urlencoded\r\n".getBytes(StandardCharsets.ISO_8859_1),
                body.getBytes(StandardCharsets.ISO_8859_1)));
        assertThat(response.status()).isBetween(400, 413);
        assertThat(response.headers().get("content-type")).isEqualTo("application/json;charset=UTF-8");
        assertThat(response.body()).startsWith("{\"error\":");
    }
}
