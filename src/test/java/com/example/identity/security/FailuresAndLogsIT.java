package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.IdentityApplication;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.WebClient;

/**
 * A whole flow with DEBUG logging of this service and of Spring Security: no password, token, code,
 * client secret or Authorization header in any log line. Then the database breaks: the answer is
 * "Error interno en el servidor" with a request id that the log line of that failure carries too, and
 * nothing else about the failure.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailuresAndLogsIT {

    @Test
    void noSecretInAnyLogLineAndInternalErrorsNameOnlyARequestId(CapturedOutput output) {
        wholeFlowThenBrokenDatabase(output);
    }

    /**
     * The same with structured logging ({@code logging.structured.format.console=ecs}, docs/operations.md):
     * every line is one JSON object, the lines of a request carry its id as the field {@code requestId},
     * and still no secret anywhere.
     */
    @Test
    void structuredLogsAreOneJsonObjectPerLineWithTheRequestIdAndNoSecret(CapturedOutput output) {
        // Another application context of the test run may still be open in this JVM, and Spring Boot does not
        // configure a Logback it finds configured already: forgotten, so that this application's settings apply
        LoggingSystem.get(getClass().getClassLoader()).cleanUp();
        String[] ids = wholeFlowThenBrokenDatabase(output, "--logging.structured.format.console=ecs");
        var lines = output.getAll().lines().filter(line -> !line.isBlank()).toList();
        assertThat(lines).hasSizeGreaterThan(20);
        int withRequestId = 0;
        for (String line : lines) {
            assertThat(line).as("a JSON line").startsWith("{").endsWith("}");
            var event = ApiAssertions.JSON.readTree(line);
            assertThat(event.isObject()).isTrue();
            assertThat(event.has("@timestamp")).as(line).isTrue();
            assertThat(event.has("message")).as(line).isTrue();
            if (event.has("requestId")) {
                withRequestId++;
                assertThat(event.get("requestId").asString()).matches("[0-9a-f]{16}");
            }
        }
        assertThat(withRequestId).as("lines logged while serving requests carry requestId").isPositive();
        for (String id : ids) {
            assertThat(lines).as("the ERROR line of request " + id).anySatisfy(line -> {
                var event = ApiAssertions.JSON.readTree(line);
                assertThat(event.get("requestId") == null ? null : event.get("requestId").asString()).isEqualTo(id);
                assertThat(event.get("log.level") != null ? event.get("log.level").asString()
                        : event.get("log").get("level").asString()).isEqualTo("ERROR");
            });
        }
    }

    /** Runs the flow and the failures; returns the request ids named by the two internal errors. */
    private static String[] wholeFlowThenBrokenDatabase(CapturedOutput output, String... extraArguments) {
        var arguments = new java.util.ArrayList<>(List.of("--server.port=0",
                "--spring.profiles.active=test",
                "--spring.datasource.url=jdbc:h2:mem:logs-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "--logging.level.com.example.identity=DEBUG", "--logging.level.org.springframework.security=DEBUG"));
        arguments.addAll(List.of(extraArguments));
        try (var app = new SpringApplicationBuilder(IdentityApplication.class).run(arguments.toArray(String[]::new))) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            String password = "log-password-" + UUID.randomUUID();
            String email = "logs-" + UUID.randomUUID() + "@example.com";
            app.getBean(AccountService.class).create("Logs", email, password, Role.DEVELOPER_API);
            long owner = app.getBean(AccountService.class).findByEmail(email).orElseThrow().getId();
            var client = com.example.identity.support.FirstParty.register(app.getBean(ClientService.class), owner, "Logs", "https://logs.example/cb");

            var web = new WebClient(port);
            web.login(email, "wrong-" + password);
            web.login(email, password);
            String csrf = web.csrfFrom("/dashboard/developer.php");
            String token = ApiAssertions.json(web.postForm("/api/tokens/create.php", Map.of("name", "t", "_csrf", csrf)))
                    .get("token").asString();
            web.get("/api/userinfo.php", "Authorization", "Bearer " + token);
            var redirect = web.get("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()
                    + "&redirect_uri=https%3A%2F%2Flogs.example%2Fcb&scope=openid%20email&state=st&nonce=nn");
            String code = UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams()
                    .getFirst("code");
            Map<String, String> form = Map.of("grant_type", "authorization_code", "code", code, "redirect_uri",
                    client.redirectUri(), "client_id", client.clientId(), "client_secret", client.clientSecret());
            var tokens = ApiAssertions.json(web.postForm("/oauth/token.php", form));
            String accessToken = tokens.get("access_token").asString();
            web.get("/api/userinfo.php", "Authorization", "Bearer " + accessToken);
            web.postForm("/oauth/token.php", form); // reuse
            web.postForm("/oauth/token.php", Map.of("grant_type", "authorization_code", "code", code, "redirect_uri",
                    client.redirectUri(), "client_id", client.clientId(), "client_secret", "wrong-" + client.clientSecret()));

            // the database fails under the token endpoint and under the API
            var jdbc = app.getBean(JdbcTemplate.class);
            var redirect2 = web.get("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()
                    + "&redirect_uri=https%3A%2F%2Flogs.example%2Fcb&scope=email&state=st");
            String code2 = UriComponentsBuilder.fromUriString(WebClient.location(redirect2)).build().getQueryParams()
                    .getFirst("code");
            // a token never presented yet, so the API must look it up (used ones are served from the cache)
            String unseen = ApiAssertions.json(web.postForm("/api/tokens/create.php", Map.of("name", "t2", "_csrf", csrf)))
                    .get("token").asString();
            jdbc.execute("alter table api_tokens rename to api_tokens_gone");
            var failed = web.postForm("/oauth/token.php", Map.of("grant_type", "authorization_code", "code", code2,
                    "redirect_uri", client.redirectUri(), "client_id", client.clientId(), "client_secret",
                    client.clientSecret()));
            var failedApi = web.get("/api/userinfo.php", "Authorization", "Bearer " + unseen);
            jdbc.execute("alter table api_tokens_gone rename to api_tokens");

            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(failed.headers().firstValue("Cache-Control")).hasValue("no-store");
            var body = ApiAssertions.json(failed);
            assertThat(body.propertyNames()).containsExactly("error", "detail");
            assertThat(body.get("error").asString()).isEqualTo("Error interno en el servidor");
            assertInternalDetail(body.get("detail").asString(), output);

            assertThat(failedApi.statusCode()).isEqualTo(500);
            var apiBody = ApiAssertions.json(failedApi);
            assertThat(apiBody.propertyNames()).containsExactly("ok", "error", "detail");
            assertThat(apiBody.get("error").asString()).isEqualTo("Error interno en el servidor");
            assertInternalDetail(apiBody.get("detail").asString(), output);

            String log = output.getAll();
            for (String secret : List.of(password, "wrong-" + password, token, unseen, code, client.clientSecret(), accessToken,
                    tokens.get("id_token").asString(), "Bearer " + token, "Bearer " + accessToken)) {
                assertThat(log).as("a secret in the log").doesNotContain(secret);
            }
            assertThat(log).doesNotContainIgnoringCase("authorization: bearer").doesNotContainIgnoringCase("authorization: basic");
            return new String[] { requestIdOf(body.get("detail").asString()), requestIdOf(apiBody.get("detail").asString()) };
        }
    }

    private static String requestIdOf(String detail) {
        var matcher = Pattern.compile("id de solicitud ([0-9a-f]{16})$").matcher(detail);
        assertThat(matcher.find()).isTrue();
        return matcher.group(1);
    }

    /** A safe description with a request id that a log line of the failure also carries; nothing more. */
    static void assertInternalDetail(String detail, CapturedOutput output) {
        var matcher = Pattern.compile("id de solicitud ([0-9a-f]{16})$").matcher(detail);
        assertThat(matcher.find()).as(detail).isTrue();
        String id = matcher.group(1);
        assertThat(output.getAll().lines().filter(line -> line.contains(id) && line.contains("ERROR")).count())
                .as("a log line at ERROR with the request id").isPositive();
        assertThat(detail).doesNotContainIgnoringCase("sql").doesNotContainIgnoringCase("exception")
                .doesNotContain("api_tokens").doesNotContain("at com.").doesNotContain("jdbc");
    }
}
