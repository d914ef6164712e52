package com.example.identity.mfa;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

/**
 * {@code identity.mfa.required-roles=developer_api} (decisions §17): a developer without a second factor
 * sets one up at the next login before anything else, and cannot turn it off; other roles are untouched.
 */
@IntegrationTest
@TestPropertySource(properties = "identity.mfa.required-roles=developer_api")
class RequiredSecondFactorIT {

    static final Pattern SECRET = Pattern.compile("id=\"totp-secret\">([A-Z2-7]{32})<");

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Test
    void aDeveloperSetsUpTotpAtTheNextLoginBeforeAnythingElse() {
        String email = "dev-" + UUID.randomUUID() + "@example.com";
        accounts.create("Dora", email, "correct-password-123", Role.DEVELOPER_API);
        var web = new WebClient(port);
        assertThat(WebClient.location(web.login(email, "correct-password-123", "/dashboard/developer.php")))
                .isEqualTo("/login/segundo-paso/alta");
        assertThat(web.get("/dashboard/developer.php").statusCode()).as("not logged in yet").isEqualTo(302);
        assertThat(WebClient.location(web.get("/login/segundo-paso"))).isEqualTo("/login/segundo-paso/alta");

        HttpResponse<String> page = web.get("/login/segundo-paso/alta");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("necesita un segundo factor").contains("<svg");
        Matcher m = SECRET.matcher(page.body());
        assertThat(m.find()).isTrue();
        HttpResponse<String> wrong = web.postForm("/login/segundo-paso/alta", Map.of("codigo", "12345",
                "contrasena", "correct-password-123", "_csrf", WebClient.csrfOf(page.body())));
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(wrong.body()).contains("id=\"totp-secret\">" + m.group(1) + "<");
        HttpResponse<String> done = web.postForm("/login/segundo-paso/alta", Map.of("codigo", TotpCodes.now(m.group(1), 0),
                "contrasena", "correct-password-123", "_csrf", WebClient.csrfOf(wrong.body())));
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(done.body()).contains("id=\"recovery-codes\"").contains("href=\"/dashboard/developer.php\"");
        assertThat(web.get("/dashboard/developer.php").statusCode()).isEqualTo(200);
        HttpResponse<String> security = web.get("/cuenta/seguridad");
        assertThat(security.body()).contains("id=\"totp-required\"").doesNotContain("id=\"totp-disable-form\"");
        HttpResponse<String> off = web.postForm("/cuenta/seguridad/totp/desactivar", Map.of("contrasena",
                "correct-password-123", "_csrf", WebClient.csrfOf(security.body())));
        assertThat(WebClient.location(off)).isEqualTo("/cuenta/seguridad");
        // the next login asks for the code, not for a new set-up
        assertThat(WebClient.location(new WebClient(port).login(email, "correct-password-123")))
                .isEqualTo("/login/segundo-paso");
    }

    @Test
    void otherRolesLogInWithThePasswordAlone() {
        String email = "user-" + UUID.randomUUID() + "@example.com";
        accounts.create("Ulises", email, "correct-password-123", Role.USER);
        assertThat(WebClient.location(new WebClient(port).login(email, "correct-password-123"))).isEqualTo("/");
    }
}
