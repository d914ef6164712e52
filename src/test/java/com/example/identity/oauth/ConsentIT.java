package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

/**
 * Consent (decisions §12.6) over real HTTP: a third-party application shows the consent page once per user
 * and set of scopes, a first-party one never (but {@code offline_access} and {@code prompt=consent} always
 * ask), {@code prompt=none} needing consent is {@code consent_required}, deny is {@code access_denied}, the
 * form needs its CSRF token, and withdrawing at {@code /cuenta/aplicaciones} revokes the application's
 * tokens and makes it ask again.
 */
class ConsentIT extends OAuthTestBase {

    ClientService.NewCredentials thirdParty;
    User user;

    @BeforeEach
    void setUp() {
        thirdParty = newThirdPartyClient();
        user = newLoggedInUser("Ane");
    }

    HttpResponse<String> authorizeRequest(ClientService.NewCredentials client, String scope, Map<String, String> extra) {
        return user.browser().get(authorizeUrl(client, scope, extra));
    }

    static String consentPageOf(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(302);
        String location = localPart(WebClient.location(response));
        assertThat(location).startsWith("/oauth/consent?request=");
        return location;
    }

    static String requestOf(String consentLocation) {
        return UriUtils.decode(UriComponentsBuilder.fromUriString(consentLocation).build().getQueryParams()
                .getFirst("request"), StandardCharsets.UTF_8);
    }

    HttpResponse<String> decide(String consentLocation, String decision) {
        HttpResponse<String> page = user.browser().get(consentLocation);
        assertThat(page.statusCode()).isEqualTo(200);
        return user.browser().postForm("/oauth/consent", Map.of("request", requestOf(consentLocation),
                "decision", decision, "_csrf", WebClient.csrfOf(page.body())));
    }

    static void assertCode(HttpResponse<String> response, ClientService.NewCredentials client) {
        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).startsWith(client.redirectUri() + "?code=");
    }

    @Test
    void aThirdPartyApplicationAsksOnceForASetOfScopesAndAgainForANewScope() {
        String consent = consentPageOf(authorizeRequest(thirdParty, "openid email", Map.of("state", "s1")));

        HttpResponse<String> page = user.browser().get(consent);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(page.body())
                .contains("<span id=\"consent-client\">Test app</span> quiere acceder a tu cuenta")
                .contains("<strong id=\"consent-owner\">Diego</strong>")
                .contains("<li data-scope=\"email\">Tu dirección de correo electrónico</li>")
                .contains("<button type=\"submit\" name=\"decision\" value=\"allow\"")
                .contains("<button type=\"submit\" name=\"decision\" value=\"deny\"")
                .doesNotContain("data-scope=\"offline_access\"");
        HttpResponse<String> approved = decide(consent, "allow");
        assertThat(approved.statusCode()).isEqualTo(302);
        assertThat(localPart(WebClient.location(approved))).isEqualTo(requestOf(consent));
        HttpResponse<String> back = user.browser().get(WebClient.location(approved));
        assertCode(back, thirdParty);
        assertThat(WebClient.location(back)).endsWith("&state=s1");

        // the same scopes again, or fewer: no page
        assertCode(authorizeRequest(thirdParty, "openid email", Map.of("state", "s2")), thirdParty);
        assertCode(authorizeRequest(thirdParty, "openid", Map.of("state", "s3")), thirdParty);
        // a new scope: the page again, naming it
        String again = consentPageOf(authorizeRequest(thirdParty, "openid email profile", Map.of("state", "s4")));
        assertThat(user.browser().get(again).body()).contains("<li data-scope=\"profile\">Tu nombre</li>");
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'CONSENT_GIVEN' and subject like ?",
                Integer.class, thirdParty.clientId() + " de usuario #" + user.id() + ":%")).isEqualTo(1);
    }

    @Test
    void anApprovalServesOnlyTheRequestItWasFor() {
        String consent = consentPageOf(authorizeRequest(thirdParty, "openid email", Map.of("state", "one")));
        decide(consent, "allow");

        // the approval is spent by the request it was given for; a different request of a covered scope set
        // needs no page anyway, so try a request with offline_access, which always asks
        String offline = consentPageOf(authorizeRequest(thirdParty, "openid offline_access", Map.of("state", "x")));
        HttpResponse<String> approved = decide(offline, "allow");
        HttpResponse<String> back = user.browser().get(WebClient.location(approved));
        assertCode(back, thirdParty);
        // replaying the same request URL after its approval was used: asked again
        consentPageOf(user.browser().get(WebClient.location(approved)));
    }

    @Test
    void aFirstPartyApplicationAsksNothingButOfflineAccessAndPromptConsentAlwaysAsk() {
        ClientService.NewCredentials firstParty = newClient();

        assertCode(authorizeRequest(firstParty, "openid email profile", Map.of("state", "s")), firstParty);
        String offline = consentPageOf(authorizeRequest(firstParty, "openid offline_access", Map.of("state", "s")));
        assertThat(user.browser().get(offline).body()).contains("data-scope=\"offline_access\"");
        assertCode(user.browser().get(WebClient.location(decide(offline, "allow"))), firstParty);
        // offline_access asks every time, even after it was granted
        consentPageOf(authorizeRequest(firstParty, "openid offline_access", Map.of("state", "t")));
        // prompt=consent asks even a first-party application for plain scopes
        consentPageOf(authorizeRequest(firstParty, "openid", Map.of("state", "u", "prompt", "consent")));
    }

    @Test
    void promptNoneWhenConsentIsNeededIsConsentRequired() {
        HttpResponse<String> response = authorizeRequest(thirdParty, "openid email",
                Map.of("state", "pn", "prompt", "none"));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo(thirdParty.redirectUri()
                + "?error=consent_required&error_description=Hace%20falta%20el%20consentimiento%20del%20usuario%20y%20"
                + "prompt%3Dnone%20no%20permite%20mostrar%20la%20pagina&state=pn");
    }

    @Test
    void denyIsAccessDeniedWithTheStateAtTheRegisteredRedirectUri() {
        String consent = consentPageOf(authorizeRequest(thirdParty, "openid email", Map.of("state", "no-gracias")));

        HttpResponse<String> denied = decide(consent, "deny");

        assertThat(denied.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(denied)).isEqualTo(thirdParty.redirectUri()
                + "?error=access_denied&error_description=El%20usuario%20no%20ha%20dado%20su%20consentimiento"
                + "&state=no-gracias");
        // nothing was granted: asked again
        consentPageOf(authorizeRequest(thirdParty, "openid email", Map.of("state", "again")));
    }

    @Test
    void theFormNeedsItsCsrfTokenAndARequestOfAKnownApplication() {
        String consent = consentPageOf(authorizeRequest(thirdParty, "openid email", Map.of("state", "c")));

        HttpResponse<String> withoutCsrf = user.browser().postForm("/oauth/consent",
                Map.of("request", requestOf(consent), "decision", "allow"));
        assertThat(withoutCsrf.statusCode()).isEqualTo(403);

        String csrf = WebClient.csrfOf(user.browser().get(consent).body());
        String forged = requestOf(consent).replace(UriUtils.encode(thirdParty.redirectUri(), StandardCharsets.UTF_8),
                UriUtils.encode("https://evil.example/cb", StandardCharsets.UTF_8));
        HttpResponse<String> elsewhere = user.browser().postForm("/oauth/consent",
                Map.of("request", forged, "decision", "deny", "_csrf", csrf));
        assertThat(elsewhere.statusCode()).isEqualTo(400);
        assertThat(elsewhere.headers().firstValue("Location")).isEmpty();
        assertThat(user.browser().get("/oauth/consent?request=" + UriUtils.encode("https://evil.example/x",
                StandardCharsets.UTF_8)).statusCode()).isEqualTo(400);
        // a request with a line break (header injection) or a malformed escape is refused, never a 500
        for (String bad : new String[] { requestOf(consent) + "\r\nSet-Cookie: x=y", requestOf(consent).replace("client_id=", "client_id=%zz") }) {
            HttpResponse<String> refused = user.browser().postForm("/oauth/consent",
                    Map.of("request", bad, "decision", "allow", "_csrf", csrf));
            assertThat(refused.statusCode()).as(bad).isEqualTo(400);
        }
    }

    @Test
    void withdrawingAtTheAccountPageRevokesTheApplicationsTokensAndItAsksAgain() {
        String code = authorize(user.browser(), thirdParty, "openid email offline_access");
        JsonNode tokens = json(exchange(thirdParty, code));
        String accessToken = tokens.get("access_token").asString();
        assertThat(TokenEndpointIT.userinfo(accessToken).statusCode()).isEqualTo(200);

        HttpResponse<String> page = user.browser().get("/cuenta/aplicaciones");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("data-client-id=\"" + thirdParty.clientId() + "\"")
                .contains("<td>Test app</td>").contains("<li>Tu dirección de correo electrónico</li>");
        HttpResponse<String> withdrawn = user.browser().postForm("/cuenta/aplicaciones/retirar",
                Map.of("client_id", thirdParty.clientId(), "_csrf", WebClient.csrfOf(page.body())));

        assertThat(withdrawn.statusCode()).isEqualTo(302);
        assertThat(TokenEndpointIT.userinfo(accessToken).statusCode()).isEqualTo(401);
        assertThat(RefreshTokenIT.refresh(thirdParty, tokens.get("refresh_token").asString()).statusCode()).isEqualTo(400);
        assertThat(user.browser().get("/cuenta/aplicaciones").body()).doesNotContain(thirdParty.clientId());
        consentPageOf(authorizeRequest(thirdParty, "openid email", Map.of("state", "w")));
    }

    @Test
    void anAdminSwitchesAnApplicationBetweenFirstAndThirdParty() {
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        WebClient adminBrowser = new WebClient(ISSUER);
        adminBrowser.login("admin@example.com", "admin-demo-password");
        HttpResponse<String> adminPage = adminBrowser.get("/dashboard/admin.php?q=" + thirdParty.clientId());
        assertThat(adminPage.body()).contains("Tercera parte: se pide");

        HttpResponse<String> switched = adminBrowser.postForm("/dashboard/admin/clients/first-party", Map.of(
                "client_id", thirdParty.clientId(), "first_party", "true", "_csrf", WebClient.csrfOf(adminPage.body())));

        assertThat(switched.statusCode()).isEqualTo(302);
        assertCode(authorizeRequest(thirdParty, "openid email", Map.of("state", "fp")), thirdParty);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'CLIENT_FIRST_PARTY_CHANGED' "
                + "and subject = ?", Integer.class, thirdParty.clientId() + ": primera parte")).isEqualTo(1);
        clients.setFirstParty(new Caller(admin, true), thirdParty.clientId(), false);
        consentPageOf(authorizeRequest(thirdParty, "openid email", Map.of("state", "tp")));
    }

    @Test
    void theDemoApplicationIsFirstParty() {
        HttpResponse<String> response = user.browser().get("/oauth/authorize.php?response_type=code&client_id=demo-app"
                + "&redirect_uri=http%3A%2F%2Flocalhost%3A9000%2Fcallback&scope=openid%20email&state=d");

        assertThat(WebClient.location(response)).startsWith("http://localhost:9000/callback?code=");
    }
}
