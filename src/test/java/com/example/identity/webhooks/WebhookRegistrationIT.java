package com.example.identity.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.account.Role;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;

import tools.jackson.databind.JsonNode;

/**
 * An application's {@code webhook_url} (decisions §21): {@code POST /api/clients/create.php} answers the
 * {@code webhook_secret} once and refuses a bad address in its own shape; the dashboard's form shows the secret once,
 * lists the last deliveries and sends a test event.
 */
class WebhookRegistrationIT extends WebhookTestBase {

    @LocalServerPort
    int port;

    @Autowired
    ApiTokenService tokens;

    @Test
    void createPhpAnswersTheSecretOnceAndRefusesABadAddress() {
        long developer = newUser(Role.DEVELOPER_API);
        String gestion = "Bearer " + tokens.createPersonal(developer, "ci", TokenScope.GESTION).value();
        WebClient api = new WebClient(port);

        HttpResponse<String> refused = api.postForm("/api/clients/create.php", Map.of("name", "mal", "redirect_uri",
                "https://x.example/cb", "webhook_url", "http://juego.example/hook"), "Authorization", gestion);
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).isEqualTo("{\"ok\":false,\"error\":\"webhook_url inválido: usa https\"}");
        HttpResponse<String> internal = api.postForm("/api/clients/create.php", Map.of("name", "mal", "redirect_uri",
                "https://x.example/cb", "webhook_url", "https://169.254.169.254/latest"), "Authorization", gestion);
        assertThat(internal.body()).isEqualTo(
                "{\"ok\":false,\"error\":\"webhook_url inválido: no puede apuntar a una dirección local o privada\"}");
        assertThat(jdbc.queryForObject("select count(*) from oauth_clients where owner_id = ?", Integer.class, developer))
                .isZero();

        HttpResponse<String> created = api.postForm("/api/clients/create.php", Map.of("name", "Con webhook", "type",
                "servidor", "webhook_url", "https://juego.example/hook"), "Authorization", gestion);
        assertThat(created.statusCode()).isEqualTo(200);
        JsonNode client = Receiver.JSON.readTree(created.body()).get("client");
        assertThat(client.get("webhook_url").asString()).isEqualTo("https://juego.example/hook");
        String secret = client.get("webhook_secret").asString();
        assertThat(secret).matches("whsec_[A-Za-z0-9+/]{43}=");
        assertThat(created.body()).endsWith("\"webhook_url\":\"https://juego.example/hook\",\"webhook_secret\":\"" + secret
                + "\"}}");

        // never again: not in the list, and an application without a webhook has neither field
        assertThat(api.get("/api/clients/list.php", "Authorization", gestion).body()).doesNotContain(secret)
                .doesNotContain("webhook_secret");
        HttpResponse<String> without = api.postForm("/api/clients/create.php", Map.of("name", "Sin webhook", "redirect_uri",
                "https://x.example/cb"), "Authorization", gestion);
        assertThat(without.body()).doesNotContain("webhook_url").doesNotContain("webhook_secret");
    }

    @Test
    void theDashboardShowsTheSecretOnceTheDeliveriesAndSendsATestEvent() throws Exception {
        int receiverPort = freePort();
        receiver = new Receiver(receiverPort);
        long developer = newUser(Role.DEVELOPER_API);
        String email = accounts.findById(developer).orElseThrow().getCorreo();
        WebClient browser = new WebClient(port);
        assertThat(browser.login(email, PASSWORD).statusCode()).isEqualTo(302);
        String page = browser.get("/dashboard/developer.php").body();
        assertThat(page).contains("name=\"webhook_url\"").doesNotContain("id=\"webhooks\"");

        // a refused form: the same page again, in the answer, with the field's message
        assertThat(browser.postForm("/dashboard/clients/create", Map.of("name", "Panel mal", "redirect_uri",
                "https://x.example/cb", "webhook_url", "ftp://x.example/hook", "_csrf", WebClient.csrfOf(page))).body())
                .contains("id=\"client-webhook-error\">webhook_url inválido: usa https</p>");

        String url = "http://127.0.0.1:" + receiverPort + "/panel";
        HttpResponse<String> made = browser.postForm("/dashboard/clients/create", Map.of("name", "Panel bien",
                "redirect_uri", "https://x.example/cb", "webhook_url", url,
                "_csrf", browser.csrfFrom("/dashboard/developer.php")));
        assertThat(made.statusCode()).isEqualTo(200);
        var matcher = java.util.regex.Pattern.compile("id=\"webhook-secret\">(whsec_[^<]+)</code>").matcher(made.body());
        assertThat(matcher.find()).isTrue();
        String secret = matcher.group(1);
        receiver.expect("/panel", secret);
        String again = browser.get("/dashboard/developer.php").body();
        assertThat(again).doesNotContain(secret).contains("id=\"webhooks\"").contains(url)
                .contains("Todavía no hay envíos.").contains("class=\"webhook-example\"");
        String clientId = jdbc.queryForObject("select client_id from oauth_clients where owner_id = ?", String.class,
                developer);

        // someone else's application: refused
        HttpResponse<String> foreign = browser.postForm("/dashboard/clients/webhook-test", Map.of("client_id",
                newApp(com.example.identity.client.ClientType.WEB, receiverPort, "/ajena").clientId(),
                "_csrf", WebClient.csrfOf(again)));
        assertThat(foreign.statusCode()).isEqualTo(302);
        assertThat(browser.get("/dashboard/developer.php").body()).contains("Esa aplicación no tiene webhook.");
        // without the CSRF token: refused
        assertThat(browser.postForm("/dashboard/clients/webhook-test", Map.of("client_id", clientId)).statusCode())
                .isEqualTo(403);

        HttpResponse<String> test = browser.postForm("/dashboard/clients/webhook-test", Map.of("client_id", clientId,
                "_csrf", browser.csrfFrom("/dashboard/developer.php")));
        assertThat(test.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(test)).endsWith("/dashboard/developer.php#webhooks");
        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.at("/panel").size() == 1);
        Receiver.Received got = receiver.at("/panel").get(0);
        assertThat(got.verified()).isTrue();
        assertThat(got.type()).isEqualTo("webhook.prueba");
        assertThat(got.data().get("client_id").asString()).isEqualTo(clientId);

        await().atMost(Duration.ofSeconds(10)).until(() -> browser.get("/dashboard/developer.php").body()
                .contains("class=\"delivery-outcome\">entregado</td>"));
        String listed = browser.get("/dashboard/developer.php").body();
        assertThat(listed).contains("class=\"delivery-type\">webhook.prueba</td>")
                .contains("class=\"delivery-status\">204</td>").contains(got.webhookId());
    }

    @Test
    void anExistingApplicationIsGivenAWebhookAndANewSecretFromTheDashboard() throws Exception {
        int receiverPort = freePort();
        receiver = new Receiver(receiverPort);
        long developer = newUser(Role.DEVELOPER_API);
        String email = accounts.findById(developer).orElseThrow().getCorreo();
        WebClient browser = new WebClient(port);
        assertThat(browser.login(email, PASSWORD).statusCode()).isEqualTo(302);
        browser.postForm("/dashboard/clients/create", Map.of("name", "Sin webhook aún", "redirect_uri",
                "https://x.example/cb", "_csrf", browser.csrfFrom("/dashboard/developer.php")));
        String clientId = jdbc.queryForObject("select client_id from oauth_clients where owner_id = ?", String.class,
                developer);
        String page = browser.get("/dashboard/developer.php").body();
        assertThat(page).contains("id=\"webhook-replace-form\"").contains("value=\"" + clientId + "\"");

        // refused: a bad address, someone else's application, no CSRF token
        HttpResponse<String> bad = browser.postForm("/dashboard/clients/webhook", Map.of("client_id", clientId,
                "webhook_url", "ftp://x.example/hook", "_csrf", WebClient.csrfOf(page)));
        assertThat(bad.statusCode()).isEqualTo(302);
        assertThat(browser.get("/dashboard/developer.php").body()).contains("webhook_url inválido: usa https");
        String foreign = newApp(com.example.identity.client.ClientType.WEB, receiverPort, "/ajena").clientId();
        browser.postForm("/dashboard/clients/webhook", Map.of("client_id", foreign, "webhook_url",
                "http://127.0.0.1:" + receiverPort + "/robado", "_csrf", browser.csrfFrom("/dashboard/developer.php")));
        assertThat(browser.get("/dashboard/developer.php").body()).contains("No existe esa aplicación.");
        assertThat(jdbc.queryForObject("select url from webhook_endpoints where client_id = ?", String.class, foreign))
                .endsWith("/ajena");
        assertThat(browser.postForm("/dashboard/clients/webhook", Map.of("client_id", clientId, "webhook_url",
                "http://127.0.0.1:" + receiverPort + "/x")).statusCode()).isEqualTo(403);

        String first = giveWebhook(browser, clientId, "http://127.0.0.1:" + receiverPort + "/primero");
        receiver.expect("/primero", first);
        sendTest(browser, clientId);
        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.at("/primero").size() == 1);
        assertThat(receiver.at("/primero").get(0).verified()).isTrue();

        // the same application again: a new address and a new secret; the old one signs nothing more
        String second = giveWebhook(browser, clientId, "http://127.0.0.1:" + receiverPort + "/segundo");
        assertThat(second).isNotEqualTo(first);
        assertThat(browser.get("/dashboard/developer.php").body()).doesNotContain(second).doesNotContain(first);
        receiver.expect("/segundo", second);
        sendTest(browser, clientId);
        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.at("/segundo").size() == 1);
        assertThat(receiver.at("/segundo").get(0).verified()).isTrue();
        assertThat(receiver.at("/primero")).hasSize(1);
    }

    private static String giveWebhook(WebClient browser, String clientId, String url) {
        HttpResponse<String> changed = browser.postForm("/dashboard/clients/webhook", Map.of("client_id", clientId,
                "webhook_url", url, "_csrf", browser.csrfFrom("/dashboard/developer.php")));
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.body()).contains("id=\"changed-webhook-box\"").contains(url);
        var matcher = java.util.regex.Pattern.compile("id=\"webhook-secret\">(whsec_[^<]+)</code>").matcher(changed.body());
        assertThat(matcher.find()).isTrue();
        return matcher.group(1);
    }

    private static void sendTest(WebClient browser, String clientId) {
        assertThat(browser.postForm("/dashboard/clients/webhook-test", Map.of("client_id", clientId,
                "_csrf", browser.csrfFrom("/dashboard/developer.php"))).statusCode()).isEqualTo(302);
    }
}
