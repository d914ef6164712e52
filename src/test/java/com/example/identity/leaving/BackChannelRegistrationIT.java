package com.example.identity.leaving;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.example.identity.account.Role;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/**
 * An application's {@code backchannel_logout_uri} (decisions §20): the field of {@code POST /api/clients/create.php}
 * and of the dashboard's registration form, under the rules of {@code redirect_uri} and the receivers' address rule.
 */
class BackChannelRegistrationIT extends LeavingTestBase {

    @Autowired
    ApiTokenService tokens;

    String uriOf(String name) {
        return jdbc.queryForObject("select backchannel_logout_uri from oauth_clients where name = ?", String.class, name);
    }

    @Test
    void theCreateRouteAndTheDashboardTakeItUnderTheRedirectUriRules() {
        User developer = newLoggedInUser(Role.DEVELOPER_API);
        String gestion = "Bearer " + tokens.createPersonal(developer.id(), "ci", TokenScope.GESTION).value();
        WebClient web = new WebClient(ISSUER);

        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "api-mal", "redirect_uri",
                "https://x.example/cb", "backchannel_logout_uri", "http://x.example/bcl"), "Authorization", gestion), 400,
                "backchannel_logout_uri inválido: usa https (http solo para localhost, 127.0.0.1 o [::1])");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "api-frag", "redirect_uri",
                "https://x.example/cb", "backchannel_logout_uri", "https://x.example/bcl#f"), "Authorization", gestion), 400,
                "backchannel_logout_uri inválido: no puede llevar fragmento (#)");
        assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "api-consola", "type", "dispositivo",
                "backchannel_logout_uri", "https://x.example/bcl"), "Authorization", gestion), 400,
                "Una aplicación de tipo dispositivo no tiene backchannel_logout_uri");
        assertThat(jdbc.queryForObject("select count(*) from oauth_clients where owner_id = ?", Integer.class,
                developer.id())).isZero();

        String name = "api-bien-" + developer.id();
        assertThat(web.postForm("/api/clients/create.php", Map.of("name", name, "redirect_uri", "https://x.example/cb",
                "backchannel_logout_uri", "https://x.example/bcl"), "Authorization", gestion).statusCode()).isEqualTo(200);
        assertThat(uriOf(name)).isEqualTo("https://x.example/bcl");
        String without = "api-sin-" + developer.id();
        assertThat(web.postForm("/api/clients/create.php", Map.of("name", without, "redirect_uri", "https://x.example/cb"),
                "Authorization", gestion).statusCode()).isEqualTo(200);
        assertThat(uriOf(without)).isNull();

        // the dashboard's form
        WebClient browser = developer.browser();
        String page = browser.get("/dashboard/developer.php").body();
        assertThat(page).contains("name=\"backchannel_logout_uri\"");
        // a refused form: the same page again, in the answer, with the field's message
        assertThat(browser.postForm("/dashboard/clients/create", Map.of("name", "panel-mal", "redirect_uri",
                "https://x.example/cb", "backchannel_logout_uri", "ftp://x.example/bcl", "_csrf", WebClient.csrfOf(page)))
                .body()).contains("id=\"client-backchannel-error\">"
                + "backchannel_logout_uri inválido: usa https (http solo para localhost, 127.0.0.1 o [::1])</p>");
        String dashboardName = "panel-bien-" + developer.id();
        browser.postForm("/dashboard/clients/create", Map.of("name", dashboardName, "redirect_uri", "https://x.example/cb",
                "backchannel_logout_uri", "http://127.0.0.1:9000/bcl",
                "_csrf", browser.csrfFrom("/dashboard/developer.php")));
        assertThat(uriOf(dashboardName)).isEqualTo("http://127.0.0.1:9000/bcl");
    }

    /**
     * Issue 39, finding 3: the service POSTs to a logout URI, so it follows the receivers' address rule, as
     * {@code webhook_url} does (decisions D36): every range of the issue refused for both, in the route's shape and on
     * the dashboard, nothing registered.
     */
    @Test
    void privateAndLinkLocalAddressesAreRefusedForBothReceivers() {
        User developer = newLoggedInUser(Role.DEVELOPER_API);
        String gestion = "Bearer " + tokens.createPersonal(developer.id(), "ci", TokenScope.GESTION).value();
        WebClient web = new WebClient(ISSUER);
        for (String host : java.util.List.of("169.254.169.254", "10.0.0.1", "192.168.0.1", "192.168.255.254",
                "172.16.0.1", "172.31.255.254", "100.64.0.1", "100.127.255.254", "[fd00::1]", "[fe80::1]", "0.0.0.0",
                "[::ffff:10.0.0.1]")) {
            String url = "https://" + host + "/latest/meta-data/";
            assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "api-privada", "redirect_uri",
                    "https://x.example/cb", "backchannel_logout_uri", url), "Authorization", gestion), 400,
                    "backchannel_logout_uri inválido: no puede apuntar a una dirección local o privada");
            assertApiError(web.postForm("/api/clients/create.php", Map.of("name", "api-privada", "redirect_uri",
                    "https://x.example/cb", "webhook_url", url), "Authorization", gestion), 400,
                    "webhook_url inválido: no puede apuntar a una dirección local o privada");
        }
        WebClient browser = developer.browser();
        assertThat(browser.postForm("/dashboard/clients/create", Map.of("name", "panel-privado", "redirect_uri",
                "https://x.example/cb", "backchannel_logout_uri", "https://169.254.169.254/latest/meta-data/",
                "_csrf", browser.csrfFrom("/dashboard/developer.php"))).body()).contains("id=\"client-backchannel-error\">"
                + "backchannel_logout_uri inválido: no puede apuntar a una dirección local o privada</p>");
        assertThat(jdbc.queryForObject("select count(*) from oauth_clients where owner_id = ?", Integer.class,
                developer.id())).isZero();
    }
}
