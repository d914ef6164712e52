package com.example.identity.api;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/**
 * One rule for names ({@code common/Names}) at every door: the token API, the dashboard's token and
 * application forms, and the application API refuse the same names with a 4xx in their own words, never a
 * 500 (a NUL byte reaching PostgreSQL would be one), and nothing is stored.
 */
@IntegrationTest
class NamesEverywhereIT {

    static final String NUL = "a\u0000b";
    static final String RLO = "juego\u202egpj.exe";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    ClientService clients;

    long userId;
    WebClient web;
    String csrf;

    WebClient session() {
        String email = "names-" + UUID.randomUUID() + "@example.com";
        userId = accounts.create("Nora", email, "a-password-for-tests", Role.DEVELOPER_API).getId();
        web = new WebClient(port);
        assertThat(web.login(email, "a-password-for-tests").statusCode()).isEqualTo(302);
        csrf = web.csrfFrom("/dashboard/developer.php");
        return web;
    }

    @Test
    void tokenApiAndDashboardRefuseTheSameNames() {
        session();
        for (String name : new String[] { NUL, RLO, "a\nb", "a\u0085b", "a\u2028b" }) {
            assertApiError(web.postForm("/api/tokens/create.php", Map.of("name", name, "_csrf", csrf)), 400, "name inválido");
            var page = web.postForm("/dashboard/tokens/create", Map.of("name", name, "_csrf", csrf));
            assertThat(page.statusCode()).isEqualTo(302);
            assertThat(web.get("/dashboard/developer.php").body())
                    .contains("id=\"token-name-error\">El nombre no puede llevar caracteres de control.</p>");
        }
        assertApiError(web.postForm("/api/tokens/create.php", Map.of("name", "n".repeat(101), "_csrf", csrf)), 400,
                "name demasiado largo");
        web.postForm("/dashboard/tokens/create", Map.of("name", "n".repeat(101), "_csrf", csrf));
        assertThat(web.get("/dashboard/developer.php").body())
                .contains("id=\"token-name-error\">El nombre no puede pasar de 100 caracteres.</p>");
        assertThat(tokens.listForOwner(userId)).isEmpty();

        // the same trimming on both doors
        web.postForm("/dashboard/tokens/create", Map.of("name", "  mi juego\t", "_csrf", csrf));
        web.postForm("/api/tokens/create.php", Map.of("name", " mi juego ", "_csrf", csrf));
        assertThat(tokens.listForOwner(userId)).extracting(t -> t.getName()).containsExactly("mi juego", "mi juego");
    }

    @Test
    void applicationApiAndDashboardRefuseTheSameNames() {
        session();
        String gestion = "Bearer " + tokens.createPersonal(userId, "ci", TokenScope.GESTION).value();
        for (String name : new String[] { NUL, RLO, "a\rb" }) {
            assertApiError(web.postForm("/api/clients/create.php", Map.of("name", name, "redirect_uri",
                    "https://x.example/cb"), "Authorization", gestion), 400, "name inválido");
            assertApiError(web.postForm("/api/clients/create.php", Map.of("name", name, "redirect_uri",
                    "https://x.example/cb", "_csrf", csrf)), 400, "name inválido");
            // the dashboard's refusal is the page again, in the answer, with the field's message
            assertThat(web.postForm("/dashboard/clients/create", Map.of("name", name, "redirect_uri", "https://x.example/cb",
                    "_csrf", csrf)).body()).contains("id=\"client-name-error\">name inválido</p>");
        }
        assertThat(clients.listForOwner(userId)).isEmpty();
    }
}
