package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

import com.example.identity.support.WebClient;

/**
 * A deliberately tiny bound on waiting password hashes ({@code identity.password-hashing.max-queued=1}), in a
 * context of its own: a burst of logins gets some 503 "try again" pages with {@code Retry-After} at once
 * instead of a queue that slows everyone, and the service logs people in again right after.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "identity.password-hashing.max-queued=1" })
@ActiveProfiles("test")
class PasswordHashingBusyIT {

    @LocalServerPort
    int port;

    @Test
    void aBurstBeyondTheBoundGetsTryAgainPagesAndNothingElseBreaks() throws Exception {
        int burst = 40;
        List<Callable<HttpResponse<String>>> logins = new ArrayList<>();
        for (int i = 0; i < burst; i++) {
            var web = new WebClient(port);
            Map<String, String> form = new LinkedHashMap<>();
            form.put("username", "dev@example.com");
            form.put("password", "dev-demo-password");
            form.put("_csrf", web.csrfFrom("/login/"));
            logins.add(() -> web.postForm("/login/", form));
        }
        var pool = Executors.newFixedThreadPool(burst);
        List<HttpResponse<String>> answers = new ArrayList<>();
        try {
            for (Future<HttpResponse<String>> answer : pool.invokeAll(logins, 60, TimeUnit.SECONDS)) {
                answers.add(answer.get());
            }
        }
        finally {
            pool.shutdownNow();
        }

        var busy = answers.stream().filter(r -> r.statusCode() == 503).toList();
        var loggedIn = answers.stream().filter(r -> r.statusCode() == 302).toList();
        assertThat(busy.size() + loggedIn.size()).as("only logins and try-again pages").isEqualTo(burst);
        assertThat(loggedIn).as("some got in").isNotEmpty()
                .allSatisfy(r -> assertThat(WebClient.location(r)).isEqualTo("/dashboard/developer.php"));
        assertThat(busy).as("two hashing threads and one waiting place cannot take 40 at once").isNotEmpty();
        for (var page : busy) {
            assertThat(page.headers().firstValue("Retry-After")).hasValue("2");
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(page.body()).contains("Hay demasiados inicios de sesión a la vez. Inténtalo de nuevo en unos segundos.")
                    .doesNotContain("Id de solicitud");
        }

        assertThat(WebClient.location(new WebClient(port).login("dev@example.com", "dev-demo-password")))
                .as("right after the burst").isEqualTo("/dashboard/developer.php");
    }
}
