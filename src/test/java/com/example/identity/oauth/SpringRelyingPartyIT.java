package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.support.WebClient;
import com.example.rp.RelyingPartyApplication;

import tools.jackson.databind.JsonNode;

/**
 * Spring Security's own OAuth 2.0 client ({@code oauth2Login}) logs a user in through this service over
 * real HTTP, configured with nothing but the issuer (discovery), a client id and a secret: a second Spring
 * Boot application in this JVM ({@link RelyingPartyApplication}) on 127.0.0.1 (so that its cookies and the
 * service's, on localhost, never mix), driven by a cookie-keeping HTTP client that follows every redirect
 * itself as a browser would. Then a refresh with Spring Security's refresh provider, and RP-initiated
 * logout with its {@code OidcClientInitiatedLogoutSuccessHandler}.
 */
class SpringRelyingPartyIT extends OAuthTestBase {

    static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

    ConfigurableApplicationContext relyingParty;

    @AfterEach
    void stopRelyingParty() {
        if (relyingParty != null) {
            relyingParty.close();
        }
    }

    /** A browser: cookies per host, no automatic redirects. */
    static final class Browser {

        final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

        HttpResponse<String> get(URI uri) {
            return send(HttpRequest.newBuilder(uri).GET().timeout(Duration.ofSeconds(30)).build());
        }

        HttpResponse<String> post(URI uri, Map<String, String> form) {
            return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(WebClient.encode(form))).build());
        }

        /** Follows 302/303s with GETs until an answer that is not a redirect, or {@code stop} is reached. */
        HttpResponse<String> follow(HttpResponse<String> response, String stop) {
            for (int hops = 0; hops < 20 && (response.statusCode() == 302 || response.statusCode() == 303); hops++) {
                URI next = response.uri().resolve(WebClient.location(response));
                if (stop != null && next.toString().startsWith(stop)) {
                    return response;
                }
                response = get(next);
            }
            return response;
        }

        private HttpResponse<String> send(HttpRequest request) {
            try {
                return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            }
            catch (IOException e) {
                throw new IllegalStateException(e);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    static String csrf(String html) {
        Matcher m = CSRF.matcher(html);
        assertThat(m.find()).as("a CSRF field in " + html).isTrue();
        return m.group(1);
    }

    static String hidden(String html, String name) {
        Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]*)\"").matcher(html);
        assertThat(m.find()).as(name).isTrue();
        return m.group(1).replace("&amp;", "&");
    }

    @Test
    void oauth2LoginLogsInRefreshesAndLogsOutThroughTheService() throws Exception {
        int port = freePort();
        String rp = "http://127.0.0.1:" + port;
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        ClientService.NewCredentials app = clients.register(owner, "Sitio Spring",
                rp + "/login/oauth2/code/idp", List.of(rp + "/logged-out"));
        clients.setFirstParty(new Caller(owner, true), app.clientId(), true);
        String email = "spring-" + UUID.randomUUID() + "@example.com";
        long userId = accounts.create("Garazi", email, "correct-password-123", com.example.identity.account.Role.USER)
                .getId();
        relyingParty = new SpringApplicationBuilder(RelyingPartyApplication.class).properties(Map.of(
                "spring.config.name", "relying-party",
                "server.port", port,
                "server.address", "127.0.0.1",
                "spring.security.oauth2.client.provider.idp.issuer-uri", ISSUER,
                "spring.security.oauth2.client.registration.idp.client-id", app.clientId(),
                "spring.security.oauth2.client.registration.idp.client-secret", app.clientSecret(),
                "spring.security.oauth2.client.registration.idp.scope", "openid,email,profile,offline_access",
                "management.server.port", "-1")).run();
        Browser browser = new Browser();

        // 1. a protected page of the site sends the browser through the service's login
        HttpResponse<String> toLogin = browser.follow(browser.get(URI.create(rp + "/me")), ISSUER + "/login/");
        URI loginUri = toLogin.uri().resolve(WebClient.location(toLogin));
        assertThat(loginUri.toString()).startsWith(ISSUER + "/login/?redirect=%2Foauth%2Fauthorize.php");
        HttpResponse<String> loginPage = browser.get(loginUri);
        HttpResponse<String> loggedIn = browser.post(URI.create(ISSUER + "/login/"), Map.of("username", email,
                "password", "correct-password-123", "_csrf", csrf(loginPage.body()),
                "redirect", hidden(loginPage.body(), "redirect")));
        assertThat(loggedIn.statusCode()).isEqualTo(302);

        // 2. offline_access: the service's consent page, approved
        HttpResponse<String> toConsent = browser.follow(loggedIn, ISSUER + "/oauth/consent");
        URI consentUri = toConsent.uri().resolve(WebClient.location(toConsent));
        HttpResponse<String> consentPage = browser.get(consentUri);
        assertThat(consentPage.body()).contains("Sitio Spring").contains("data-scope=\"offline_access\"");
        HttpResponse<String> approved = browser.post(URI.create(ISSUER + "/oauth/consent"), Map.of(
                "request", hidden(consentPage.body(), "request"), "decision", "allow", "_csrf", csrf(consentPage.body())));

        // 3. back at the site, logged in: Spring exchanged the code, checked the id_token and read UserInfo
        HttpResponse<String> me = browser.follow(approved, null);
        assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
        assertThat(me.uri().toString()).startsWith(rp + "/me"); // Spring Security adds ?continue
        JsonNode who = JSON.readTree(me.body());
        assertThat(who.get("sub").asString()).isEqualTo("user:" + userId);
        assertThat(who.get("email").asString()).isEqualTo(email);
        assertThat(who.get("name").asString()).isEqualTo("Garazi");
        assertThat(who.get("fromUserInfo").asBoolean()).isTrue();

        // 4. a refresh with Spring Security's provider: both tokens rotate, the new access token works
        JsonNode refreshed = JSON.readTree(browser.get(URI.create(rp + "/refresh")).body());
        assertThat(refreshed.get("newAccess").asString()).isNotEqualTo(refreshed.get("oldAccess").asString());
        assertThat(refreshed.get("newRefresh").asString()).isNotEqualTo(refreshed.get("oldRefresh").asString());
        assertThat(UserInfoEndpointIT.get(refreshed.get("newAccess").asString()).statusCode()).isEqualTo(200);

        // 5. RP-initiated logout: the site's logout goes through the service's end_session_endpoint and back
        HttpResponse<String> sitePage = browser.get(URI.create(rp + "/me"));
        assertThat(sitePage.statusCode()).isEqualTo(200);
        HttpResponse<String> logoutPage = browser.get(URI.create(rp + "/logout"));
        HttpResponse<String> logout = browser.post(URI.create(rp + "/logout"), Map.of("_csrf", csrf(logoutPage.body())));
        assertThat(logout.statusCode()).isEqualTo(302);
        String endSession = WebClient.location(logout);
        assertThat(endSession).startsWith(ISSUER + "/oauth/logout.php?id_token_hint=")
                .contains("post_logout_redirect_uri=" + rp + "/logged-out");
        HttpResponse<String> back = browser.get(URI.create(endSession));
        assertThat(back.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(back)).startsWith(rp + "/logged-out");
        assertThat(browser.get(URI.create(WebClient.location(back))).body()).isEqualTo("adios");
        // the service's session is gone: the site's next login asks for the password again
        HttpResponse<String> again = browser.follow(browser.get(URI.create(rp + "/me")), ISSUER + "/login/");
        assertThat(again.uri().resolve(WebClient.location(again)).toString()).startsWith(ISSUER + "/login/");

        // 6. the refresh token Spring replaced comes back: reuse detection ends the family
        HttpResponse<String> reused = RefreshTokenIT.refresh(app, refreshed.get("oldRefresh").asString());
        assertThat(reused.statusCode()).isEqualTo(400);
        assertThat(json(reused).get("error").asString()).isEqualTo("invalid_grant");
        assertThat(TokenEndpointIT.userinfo(refreshed.get("newAccess").asString()).statusCode()).isEqualTo(401);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
