package com.example.identity.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.HtmlUtils;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

/**
 * The language switch of a page answered to a form's POST leads, by GET, to the page the person is looking at (or
 * the page that holds the form), never to a POST-only address, which would answer "Method not allowed": every
 * POST handler of every page controller, then the forms of the dashboards and account pages over HTTP.
 */
@IntegrationTest
class LanguageSwitchIT {

    static final Pattern SWITCH = Pattern.compile("id=\"language-switch\" href=\"([^\"]*)\"");

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Autowired
    AccountService accounts;

    /** Each page controller's POST, as if it rendered a page: its switch leads to an address that answers GET. */
    @Test
    void theSwitchAfterEveryPageFormLeadsToAnAddressThatAnswersGet() throws Exception {
        var target = new SwitchTarget();
        List<String> checked = new ArrayList<>();
        for (var entry : mappings.getHandlerMethods().entrySet()) {
            HandlerMethod handler = entry.getValue();
            Class<?> type = handler.getBeanType();
            if (!type.isAnnotationPresent(Controller.class) || type.isAnnotationPresent(RestController.class)
                    || !entry.getKey().getMethodsCondition().getMethods().contains(RequestMethod.POST)) {
                continue;
            }
            for (String path : entry.getKey().getPatternValues()) {
                if (path.contains("{") || path.startsWith("/api/")) {
                    continue;
                }
                var post = new MockHttpServletRequest("POST", path);
                post.addParameter("token", "abc");
                String link = target.link(post, handler, Locale.forLanguageTag("es"));
                var uri = UriComponentsBuilder.fromUriString(link).build();
                assertThat(uri.getQueryParams().getFirst("lang")).as(path).isEqualTo("en");
                var get = new MockHttpServletRequest("GET", uri.getPath());
                assertThat(mappings.getHandler(get)).as("GET " + uri.getPath() + ", the switch after POST " + path)
                        .isNotNull();
                checked.add(path + " -> " + link);
            }
        }
        assertThat(checked).as("the dashboards' and account pages' forms are among them")
                .contains("/dashboard/clients/create -> /dashboard/developer.php?lang=en",
                        "/dashboard/tokens/create -> /dashboard/developer.php?lang=en",
                        "/dashboard/admin/users/create -> /dashboard/admin.php?lang=en",
                        "/cuenta/nombre -> /cuenta/?lang=en",
                        "/cuenta/correo -> /cuenta/?lang=en",
                        "/cuenta/seguridad/sesiones/cerrar -> /cuenta/seguridad?lang=en",
                        "/cuenta/seguridad/totp/codigos -> /cuenta/seguridad/totp?lang=en",
                        "/cuenta/aplicaciones/retirar -> /cuenta/aplicaciones?lang=en",
                        "/login/restablecer -> /login/restablecer?token=abc&lang=en",
                        "/registro -> /registro?token=abc&lang=en");
    }

    @Test
    void afterTheDeveloperDashboardsFormsTheSwitchShowsTheDashboardInEnglish() {
        var web = loggedIn(Role.DEVELOPER_API);
        String csrf = web.csrfFrom("/dashboard/developer.php");
        var token = web.postForm("/dashboard/tokens/create", Map.of("name", "juego", "scope", "perfil", "_csrf", csrf));
        assertSwitchLeadsToEnglish(web, token, "/dashboard/developer.php?lang=en", "<h1>Developer dashboard</h1>");

        web.get("/dashboard/developer.php?lang=es");
        csrf = web.csrfFrom("/dashboard/developer.php");
        var client = web.postForm("/dashboard/clients/create", Map.of("name", "Mi web", "redirect_uri",
                "https://app.example.com/cb", "type", "web", "_csrf", csrf));
        assertSwitchLeadsToEnglish(web, client, "/dashboard/developer.php?lang=en", "<h1>Developer dashboard</h1>");
    }

    @Test
    void afterTheAdminDashboardsFormTheSwitchShowsTheDashboardInEnglish() {
        var web = loggedIn(Role.ADMIN);
        String csrf = web.csrfFrom("/dashboard/admin.php");
        var created = web.postForm("/dashboard/admin/users/create", Map.of("primer_nombre", "Nuevo", "correo",
                "nuevo-" + UUID.randomUUID() + "@example.com", "rol", "user", "_csrf", csrf));
        assertSwitchLeadsToEnglish(web, created, "/dashboard/admin.php?lang=en", "<h1>Administration</h1>");
    }

    @Test
    void afterTheAccountPagesFormsTheSwitchShowsThePageInEnglish() {
        var web = loggedIn(Role.USER);
        String csrf = web.csrfFrom("/cuenta/");
        var name = web.postForm("/cuenta/nombre", Map.of("primer_nombre", "", "_csrf", csrf));
        assertThat(name.statusCode()).isEqualTo(400);
        assertSwitchLeadsToEnglish(web, name, "/cuenta/?lang=en", "<h1>My account</h1>");

        web.get("/cuenta/?lang=es");
        csrf = web.csrfFrom("/cuenta/");
        var email = web.postForm("/cuenta/correo", Map.of("correo", "no es un correo", "contrasena", "x", "_csrf", csrf));
        assertSwitchLeadsToEnglish(web, email, "/cuenta/?lang=en", "<h1>My account</h1>");

        web.get("/cuenta/contrasena?lang=es");
        csrf = web.csrfFrom("/cuenta/contrasena");
        var password = web.postForm("/cuenta/contrasena", Map.of("actual", "wrong", "nueva", "x", "repetida", "y",
                "_csrf", csrf));
        assertSwitchLeadsToEnglish(web, password, "/cuenta/contrasena?lang=en", "<h1>Change password</h1>");
    }

    @Test
    void afterTheResetFormTheSwitchKeepsTheLinksToken() {
        var web = new WebClient(port);
        String token = "x".repeat(43);
        String csrf = web.csrfFrom("/login/recuperar");
        var reset = web.postForm("/login/restablecer", Map.of("token", token, "nueva", "a", "repetida", "b", "_csrf", csrf));
        assertThat(switchOf(reset)).isEqualTo("/login/restablecer?token=" + token + "&lang=en");
    }

    private WebClient loggedIn(Role role) {
        String email = "switch-" + UUID.randomUUID() + "@example.com";
        accounts.create("Sol", email, "a-long-enough-password-1", role);
        var web = new WebClient(port);
        assertThat(WebClient.location(web.login(email, "a-long-enough-password-1"))).doesNotContain("error");
        return web;
    }

    /** The answer (or the page it redirects to) is Spanish; its switch leads to {@code expected}, English, by GET. */
    private void assertSwitchLeadsToEnglish(WebClient web, HttpResponse<String> answer, String expected, String english) {
        HttpResponse<String> page = answer;
        if (answer.statusCode() == 302) {
            String location = WebClient.location(answer);
            page = web.get(location.startsWith("http") ? java.net.URI.create(location).getRawPath() : location);
        }
        assertThat(page.body()).contains("<html lang=\"es\">");
        String link = switchOf(page);
        assertThat(link).isEqualTo(expected);
        HttpResponse<String> switched = web.get(link);
        assertThat(switched.statusCode()).as(link).isEqualTo(200);
        assertThat(switched.body()).contains("<html lang=\"en\">").contains(english);
    }

    private static String switchOf(HttpResponse<String> page) {
        Matcher m = SWITCH.matcher(page.body());
        assertThat(m.find()).as("a language switch in:\n" + page.body()).isTrue();
        return HtmlUtils.htmlUnescape(m.group(1));
    }
}
