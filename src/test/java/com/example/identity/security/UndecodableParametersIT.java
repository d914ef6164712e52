package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.support.IntegrationTest;
import com.example.identity.support.RawHttp;
import com.example.identity.support.WebClient;

/**
 * A parameter that cannot be decoded ({@code %zz}) is refused with 400 in the endpoint's shape before any
 * code reads it, and its value never reaches the log: before web/UndecodableParameters, Tomcat logged a
 * logged-in form's undecodable parameter at ERROR with its value (a secret, a CSRF token).
 */
@IntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class UndecodableParametersIT {

    static final String FORM = "Content-Type: application/x-www-form-urlencoded\r\n";

    @LocalServerPort
    int port;

    RawHttp.Response post(String path, String headers, String body) {
        return RawHttp.send(port, RawHttp.request("POST", path, headers.getBytes(StandardCharsets.ISO_8859_1),
                body.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void aLoggedInFormWithABrokenEscapeIsRefusedInTheApiShapeAndNotLogged(CapturedOutput output) {
        var web = new WebClient(port);
        assertThat(web.login("dev@example.com", "dev-demo-password").statusCode()).isEqualTo(302);
        String session = "Cookie: JSESSIONID=" + web.sessionId().orElseThrow() + "\r\nX-CSRF-TOKEN: "
                + web.csrfFrom("/dashboard/developer.php") + "\r\n";

        var response = post("/api/tokens/create.php", FORM + session, "name=never-logged-name%ZZb");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.headers().get("content-type")).isEqualTo("application/json;charset=UTF-8");
        assertThat(response.body()).isEqualTo("{\"ok\":false,\"error\":\"Solicitud inválida\"}");
        assertThat(output.getAll()).doesNotContain("never-logged-name").doesNotContain("InvalidParameterException");
    }

    @Test
    void theTokenEndpointRefusesItInItsShape(CapturedOutput output) {
        var response = post("/oauth/token.php", FORM,
                "grant_type=authorization_code&client_id=demo-app&client_secret=never-logged-secret%zz");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.headers().get("content-type")).isEqualTo("application/json;charset=UTF-8");
        assertThat(response.headers().get("cache-control")).isEqualTo("no-store");
        assertThat(response.body()).isEqualTo("{\"error\":\"Solicitud inválida\"}");
        assertThat(output.getAll()).doesNotContain("never-logged-secret");
    }

    @Test
    void theAuthorizationEndpointAnswersASpanishPage(CapturedOutput output) {
        var response = RawHttp.send(port, RawHttp.request("GET",
                "/oauth/authorize.php?response_type=code&client_id=demo-app&state=never-logged-state%zz", new byte[0], null));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.headers().get("content-type")).isEqualTo("text/html;charset=UTF-8");
        assertThat(response.body()).contains("lang=\"es\"").contains("Solicitud inválida");
        assertThat(output.getAll()).doesNotContain("never-logged-state");
    }
}
