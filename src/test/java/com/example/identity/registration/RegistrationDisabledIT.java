package com.example.identity.registration;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

/** {@code identity.registration.enabled=false} (decisions §18): {@code /registro} answers 404, the login page has no link. */
@IntegrationTest
@TestPropertySource(properties = "identity.registration.enabled=false")
class RegistrationDisabledIT {

    @LocalServerPort
    int port;

    @Test
    void signUpAnswers404AndTheLoginPageDoesNotOfferIt() {
        var web = new WebClient(port);
        assertThat(web.get("/registro").statusCode()).isEqualTo(404);
        assertThat(web.get("/registro/confirmar?token=x").statusCode()).isEqualTo(404);
        String login = web.get("/login/").body();
        assertThat(web.postForm("/registro", java.util.Map.of("correo", "a@example.com", "primer_nombre", "A",
                "password", "long-enough-password", "_csrf", WebClient.csrfOf(login))).statusCode()).isEqualTo(404);
        assertThat(login).doesNotContain("/registro").doesNotContain("Crear cuenta");
    }
}
