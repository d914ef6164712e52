package com.example.identity.dashboard;

import static com.example.identity.support.ApiAssertions.assertApiError;
import static com.example.identity.support.ApiAssertions.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.client.ClientService;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

/**
 * The lists that grow, paged and searched: {@code ?page=} (from 1), {@code ?size=} (default 50, at most
 * 200), {@code ?q=} (3 to 100 characters) on {@code /api/tokens/list.php}, {@code /api/clients/list.php}
 * and the admin page; the neighbouring pages in a {@code Link} header; bad values a 400 in the API's shape.
 */
@IntegrationTest
class ListPagingIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    ClientService clients;

    private UserAccount user(Role role) {
        return accounts.create("Paula", "p-" + UUID.randomUUID() + "@example.com", "a-password-for-tests", role);
    }

    private List<String> names(String body, String list) {
        return com.example.identity.support.ApiAssertions.JSON.readTree(body).get(list).valueStream().map(t -> t.get("name").asString()).toList();
    }

    @Test
    void tokenListIsPagedNewestFirstWithLinks() {
        var me = user(Role.DEVELOPER_API);
        String auth = "Bearer " + tokens.createPersonal(me.getId(), "t00", TokenScope.GESTION).value();
        for (int i = 1; i <= 6; i++) {
            tokens.createPersonal(me.getId(), "t0" + i);
        }
        var web = new WebClient(port);
        var first = web.get("/api/tokens/list.php?size=3", "Authorization", auth);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(json(first).propertyNames()).containsExactly("ok", "tokens");
        assertThat(names(first.body(), "tokens")).containsExactly("t06", "t05", "t04");
        assertThat(first.headers().firstValue("Link")).hasValue("</api/tokens/list.php?page=2&size=3>; rel=\"next\"");

        var third = web.get("/api/tokens/list.php?page=3&size=3", "Authorization", auth);
        assertThat(names(third.body(), "tokens")).containsExactly("t00");
        assertThat(third.headers().firstValue("Link")).hasValue("</api/tokens/list.php?page=2&size=3>; rel=\"prev\"");

        var all = web.get("/api/tokens/list.php", "Authorization", auth);
        assertThat(names(all.body(), "tokens")).hasSize(7);
        assertThat(all.headers().firstValue("Link")).isEmpty();
    }

    @Test
    void searchesByNameClientIdAndOwnerEmail() {
        var admin = user(Role.ADMIN);
        var owner = user(Role.DEVELOPER_API);
        String adminAuth = "Bearer " + tokens.createPersonal(admin.getId(), "admin-cli", TokenScope.GESTION).value();
        String tag = UUID.randomUUID().toString().substring(0, 8);
        tokens.createPersonal(owner.getId(), "Juego " + tag.toUpperCase());
        tokens.createPersonal(owner.getId(), "otro");
        var app = clients.register(owner.getId(), "App " + tag, "https://search.example/cb");
        var web = new WebClient(port);

        // name contains, case-insensitively
        assertThat(names(web.get("/api/tokens/list.php?q=" + tag, "Authorization", adminAuth).body(), "tokens"))
                .containsExactly("Juego " + tag.toUpperCase());
        // owner's e-mail (exact): every token of that account
        assertThat(names(web.get("/api/tokens/list.php?q=" + owner.getCorreo(), "Authorization", adminAuth).body(), "tokens"))
                .containsExactlyInAnyOrder("Juego " + tag.toUpperCase(), "otro");
        // applications: by name, by part of the client id, by owner's e-mail
        assertThat(names(web.get("/api/clients/list.php?q=" + tag, "Authorization", adminAuth).body(), "clients"))
                .containsExactly("App " + tag);
        assertThat(json(web.get("/api/clients/list.php?q=" + app.clientId().substring(2, 12), "Authorization", adminAuth))
                .get("clients").get(0).get("client_id").asString()).isEqualTo(app.clientId());
        assertThat(names(web.get("/api/clients/list.php?q=" + owner.getCorreo(), "Authorization", adminAuth).body(), "clients"))
                .containsExactly("App " + tag);
        // a developer searches only their own
        String ownerAuth = "Bearer " + tokens.createPersonal(owner.getId(), "cli", TokenScope.GESTION).value();
        var mine = json(web.get("/api/clients/list.php?q=" + tag, "Authorization", ownerAuth));
        assertThat(mine.get("clients").size()).isEqualTo(1);
        String strangerAuth = "Bearer " + tokens.createPersonal(user(Role.DEVELOPER_API).getId(), "cli", TokenScope.GESTION).value();
        assertThat(json(web.get("/api/clients/list.php?q=" + tag, "Authorization", strangerAuth)).get("clients").size()).isZero();
        assertThat(json(web.get("/api/tokens/list.php?q=" + tag, "Authorization", strangerAuth)).get("tokens").size()).isZero();
        // LIKE wildcards are searched for literally
        assertThat(json(web.get("/api/tokens/list.php?q=%25%25%25", "Authorization", adminAuth)).get("tokens").size()).isZero();
    }

    @Test
    void badPagingParametersAre400InTheApiShape() {
        String auth = "Bearer " + tokens.createPersonal(user(Role.DEVELOPER_API).getId(), "cli", TokenScope.GESTION).value();
        var web = new WebClient(port);
        assertApiError(web.get("/api/tokens/list.php?page=0", "Authorization", auth), 400, "page inválido (un número de 1 a 10000)");
        assertApiError(web.get("/api/tokens/list.php?page=x", "Authorization", auth), 400, "page inválido (un número de 1 a 10000)");
        assertApiError(web.get("/api/clients/list.php?size=201", "Authorization", auth), 400, "size inválido (un número de 1 a 200)");
        assertApiError(web.get("/api/clients/list.php?size=-1", "Authorization", auth), 400, "size inválido (un número de 1 a 200)");
        assertApiError(web.get("/api/tokens/list.php?q=ab", "Authorization", auth), 400, "q demasiado corto (mínimo 3 caracteres)");
        assertApiError(web.get("/api/tokens/list.php?q=" + "a".repeat(101), "Authorization", auth), 400,
                "q demasiado largo (máximo 100 caracteres)");
        assertApiError(web.get("/api/tokens/list.php?page=1&page=2", "Authorization", auth), 400, "Parámetro repetido: page");
    }

    @Test
    void adminPageIsPagedAndSearchable() {
        var admin = user(Role.ADMIN);
        String tag = "zq" + UUID.randomUUID().toString().substring(0, 6);
        var found = accounts.create("Buscada " + tag, tag + "@example.com", "a-password-for-tests", Role.USER);
        var web = new WebClient(port);
        assertThat(web.login(admin.getCorreo(), "a-password-for-tests").statusCode()).isEqualTo(302);

        var search = web.get("/dashboard/admin.php?q=" + tag);
        assertThat(search.statusCode()).isEqualTo(200);
        assertThat(search.body()).contains("data-user-id=\"" + found.getId() + "\"");
        assertThat(search.body().split("data-user-id=").length - 1).isEqualTo(1);

        var firstPage = web.get("/dashboard/admin.php?size=1");
        assertThat(firstPage.body().split("data-user-id=").length - 1).isEqualTo(1);
        assertThat(firstPage.body()).contains("id=\"next-page\" href=\"/dashboard/admin.php?page=2&amp;size=1\"");
        var second = web.get("/dashboard/admin.php?page=2&size=1");
        assertThat(second.body()).contains("id=\"prev-page\" href=\"/dashboard/admin.php?page=1&amp;size=1\"");

        var bad = web.get("/dashboard/admin.php?size=9999");
        assertThat(bad.statusCode()).isEqualTo(200);
        assertThat(bad.body()).contains("size inválido (un número de 1 a 200)");
    }
}
