package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.example.identity.Endpoints;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.WebClient;

/**
 * RP-initiated logout at {@code /oauth/logout.php} (decisions §12.7; OpenID Connect RP-Initiated Logout 1.0,
 * as the OIDF's rp-initiated logout tests drive it): a hint of the logged-in user ends the session and goes
 * back to a registered address with {@code state}; anything else is asked or refused, never redirected.
 */
class LogoutEndpointIT extends OAuthTestBase {

    private static final String BYE = "https://rp.example/bye";

    private ClientService.NewCredentials clientWithLogout() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        return clients.register(owner, "Logout app", "https://rp.example/cb/" + UUID.randomUUID(), List.of(BYE));
    }

    private static String idToken(WebClient web, ClientService.NewCredentials client) {
        var response = exchange(client, authorize(web, client, "openid"));
        assertThat(response.statusCode()).isEqualTo(200);
        return json(response).get("id_token").asString();
    }

    private static String logoutUrl(Map<String, String> parameters) {
        return Endpoints.LOGOUT + "?" + WebClient.encode(parameters);
    }

    private static boolean sessionAlive(WebClient web) {
        return web.get("/dashboard/developer.php").statusCode() == 200;
    }

    @Test
    void aHintOfTheLoggedInUserEndsTheSessionAndGoesBackWithState() {
        var client = clientWithLogout();
        var web = loggedInDeveloper();
        String idToken = idToken(web, client);
        assertThat(sessionAlive(web)).isTrue();

        var response = web.get(logoutUrl(Map.of("id_token_hint", idToken, "post_logout_redirect_uri", BYE,
                "state", "a b&c")));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo(BYE + "?state=a+b%26c");
        assertThat(sessionAlive(web)).as("the session row is gone, on every instance").isFalse();
    }

    @Test
    void withoutARedirectAddressTheLogoutEndsOnTheLoginPage() {
        var client = clientWithLogout();
        var web = loggedInDeveloper();
        var response = web.get(logoutUrl(Map.of("id_token_hint", idToken(web, client))));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo("/login/?logout");
        assertThat(sessionAlive(web)).isFalse();
    }

    @Test
    void anUnregisteredAddressIsRefusedWithoutRedirectingOrEndingTheSession() {
        var client = clientWithLogout();
        var web = loggedInDeveloper();
        var response = web.get(logoutUrl(Map.of("id_token_hint", idToken(web, client),
                "post_logout_redirect_uri", "https://evil.example/bye")));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Location")).isEmpty();
        assertThat(response.body()).contains("La dirección post_logout_redirect_uri no está registrada para esta aplicación.");
        assertThat(sessionAlive(web)).isTrue();
    }

    @Test
    void anotherApplicationsAddressIsRefused() {
        var client = clientWithLogout();
        var other = clientWithLogout();
        var web = loggedInDeveloper();
        var response = web.get(logoutUrl(Map.of("id_token_hint", idToken(web, client), "client_id", other.clientId(),
                "post_logout_redirect_uri", BYE)));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("El id_token_hint no corresponde a la aplicación indicada.");
        assertThat(sessionAlive(web)).isTrue();
    }

    @Test
    void withoutAValidHintTheUserIsAskedOnAPageWhoseFormCarriesCsrf() {
        var web = loggedInDeveloper();
        for (String hint : new String[] { null, "not-a-jwt", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyOjEifQ." }) {
            Map<String, String> parameters = new LinkedHashMap<>();
            if (hint != null) {
                parameters.put("id_token_hint", hint);
            }
            var response = web.get(logoutUrl(parameters));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("¿Cerrar la sesión?").contains("action=\"/logout\"")
                    .contains("name=\"_csrf\"");
            assertThat(response.body()).as("the header shows who is logged in, as every page does")
                    .contains("title=\"Mi cuenta\"").doesNotContain(">Iniciar sesión</a>");
            assertThat(sessionAlive(web)).isTrue();
        }
        var confirmed = web.postForm("/logout", Map.of("_csrf", WebClient.csrfOf(web.get(logoutUrl(Map.of())).body())));
        assertThat(confirmed.statusCode()).isEqualTo(302);
        assertThat(sessionAlive(web)).isFalse();
    }

    /** The hidden fields of the confirmation page's form, as rendered. */
    private static String carried(String postLogout, String clientId, String state) {
        return "<input type=\"hidden\" name=\"post_logout_redirect_uri\" value=\"" + postLogout + "\">\n"
                + "            <input type=\"hidden\" name=\"client_id\" value=\"" + clientId + "\">\n"
                + "            <input type=\"hidden\" name=\"state\" value=\"" + state + "\">";
    }

    @Test
    void aConfirmedLogoutWithoutHintGoesBackToTheRegisteredAddressWithState() {
        var client = clientWithLogout();
        var web = loggedInDeveloper();

        var page = web.get(logoutUrl(Map.of("client_id", client.clientId(), "post_logout_redirect_uri", BYE,
                "state", "a b&c")));

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("¿Cerrar la sesión?").contains("action=\"/logout\"")
                .contains(carried(BYE, client.clientId(), "a b&amp;c"))
                .contains("Después volverás a\n        <code>" + BYE + "</code>.");
        // the browser follows the POST's redirect only where the page's form-action allows
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'self'; script-src 'self'; "
                + "style-src 'self'; img-src 'self' data:; form-action 'self' https://rp.example; frame-ancestors 'none'; "
                + "base-uri 'none'; object-src 'none'");
        assertThat(sessionAlive(web)).isTrue();

        var confirmed = web.postForm("/logout", Map.of("post_logout_redirect_uri", BYE, "client_id", client.clientId(),
                "state", "a b&c", "_csrf", WebClient.csrfOf(page.body())));

        assertThat(confirmed.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(confirmed)).isEqualTo(BYE + "?state=a+b%26c");
        assertThat(sessionAlive(web)).isFalse();
    }

    @Test
    void theConfirmationFormIsNotTrustedAnAddressIsCheckedAgainWhenPosted() {
        var client = clientWithLogout();
        var other = clientWithLogout();
        for (Map<String, String> forged : List.of(
                Map.of("post_logout_redirect_uri", "https://evil.example/bye", "client_id", client.clientId(), "state", "s"),
                // registered, but by no application of that id
                Map.of("post_logout_redirect_uri", BYE, "client_id", "no-such-app", "state", "s"),
                Map.of("post_logout_redirect_uri", BYE, "state", "s"))) {
            var web = loggedInDeveloper();
            Map<String, String> form = new LinkedHashMap<>(forged);
            form.put("_csrf", web.csrfFrom("/dashboard/developer.php"));

            var confirmed = web.postForm("/logout", form);

            assertThat(confirmed.statusCode()).as(forged.toString()).isEqualTo(302);
            assertThat(WebClient.location(confirmed)).as(forged.toString()).isEqualTo("/login/?logout");
            assertThat(sessionAlive(web)).isFalse();
        }
        // and without its CSRF token, /logout ends nothing
        var web = loggedInDeveloper();
        var withoutCsrf = web.postForm("/logout", Map.of("post_logout_redirect_uri", BYE, "client_id", other.clientId()));
        assertThat(withoutCsrf.statusCode()).isEqualTo(403);
        assertThat(sessionAlive(web)).isTrue();
    }

    @Test
    void withoutHintAnAddressNeedsClientIdToSayWhoseItIs() {
        var web = loggedInDeveloper();
        var response = web.get(logoutUrl(Map.of("post_logout_redirect_uri", BYE, "state", "s")));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Location")).isEmpty();
        assertThat(response.body()).contains("La dirección post_logout_redirect_uri no está registrada para esta aplicación.");
        // without an address, the page carries nothing and the logout ends on the login page
        var page = web.get(logoutUrl(Map.of("client_id", "whoever", "state", "s")));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).doesNotContain("name=\"post_logout_redirect_uri\"").doesNotContain("name=\"state\"");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("form-action 'self';");
    }

    @Test
    void aHintOfAnotherUserIsAskedAboutNotObeyed() {
        var client = clientWithLogout();
        String othersToken = idToken(loggedIn(Role.USER, "Otra"), client);
        var web = loggedInDeveloper();

        var response = web.get(logoutUrl(Map.of("id_token_hint", othersToken, "post_logout_redirect_uri", BYE,
                "state", "st")));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("La aplicación pidió cerrar la sesión de otra cuenta")
                // the hint's application is whose the address is
                .contains(carried(BYE, client.clientId(), "st"));
        assertThat(sessionAlive(web)).isTrue();
    }

    @Test
    void withNobodyLoggedInAValidRequestStillGoesBack() {
        var client = clientWithLogout();
        String idToken = idToken(loggedInDeveloper(), client);
        var response = new WebClient(ISSUER).get(logoutUrl(Map.of("id_token_hint", idToken,
                "post_logout_redirect_uri", BYE, "state", "s1")));

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(response)).isEqualTo(BYE + "?state=s1");
    }

    @Test
    void aCrossSitePostIsRepeatedAsAGetThatCarriesTheCookie() {
        var response = new WebClient(ISSUER).postForm(Endpoints.LOGOUT,
                Map.of("id_token_hint", "h.i.nt", "state", "x y", "post_logout_redirect_uri", BYE));

        assertThat(response.statusCode()).isEqualTo(303);
        assertThat(WebClient.location(response)).startsWith(Endpoints.LOGOUT + "?")
                .contains("id_token_hint=h.i.nt").contains("state=x%20y")
                .contains("post_logout_redirect_uri=https%3A%2F%2Frp.example%2Fbye");
    }

    @Test
    void theDemoApplicationRegistersItsLogoutAddressAndDiscoveryAnnouncesTheEndpoint() {
        assertThat(jdbc.queryForList("select uri from oauth_client_logout_uris where client_id = 'demo-app'", String.class))
                .containsExactly("http://localhost:9000/logged-out");
        var discovery = json(new WebClient(ISSUER).get("/.well-known/openid-configuration"));
        assertThat(discovery.get("end_session_endpoint").asString()).isEqualTo(ISSUER + "/oauth/logout.php");
    }

    @Test
    void theManagementRouteRegistersLogoutAddresses() {
        var web = loggedInDeveloper();
        String csrf = web.csrfFrom("/dashboard/developer.php");
        HttpResponse<String> created = web.postRaw("/api/clients/create.php",
                "name=Juego&redirect_uri=" + WebClient.encode(Map.of("x", "https://game.example/cb")).substring(2)
                        + "&post_logout_redirect_uri=" + WebClient.encode(Map.of("x", BYE)).substring(2)
                        + "&post_logout_redirect_uri=" + WebClient.encode(Map.of("x", "https://game.example/adios")).substring(2),
                "Content-Type", "application/x-www-form-urlencoded", "X-CSRF-TOKEN", csrf);
        assertThat(created.statusCode()).isEqualTo(200);
        String clientId = json(created).get("client").get("client_id").asString();
        assertThat(jdbc.queryForList("select uri from oauth_client_logout_uris where client_id = ? order by uri",
                String.class, clientId)).containsExactly("https://game.example/adios", BYE);

        HttpResponse<String> refused = web.postRaw("/api/clients/create.php",
                "name=Juego&redirect_uri=https%3A%2F%2Fgame.example%2Fcb&post_logout_redirect_uri=http%3A%2F%2Fgame.example%2Fbye",
                "Content-Type", "application/x-www-form-urlencoded", "X-CSRF-TOKEN", csrf);
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).isEqualTo("{\"ok\":false,\"error\":\"post_logout_redirect_uri inválido: usa https"
                + " (http solo para localhost, 127.0.0.1 o [::1])\"}");
    }
}
