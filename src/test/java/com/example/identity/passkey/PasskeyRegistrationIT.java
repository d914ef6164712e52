package com.example.identity.passkey;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.mfa.MfaSettings;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;

/**
 * Adding a passkey needs a recent proof of who one is (decisions §17): the session's login, or the password
 * typed again at {@code /cuenta/seguridad}, within {@code identity.mfa.recent-login} (the shipped 10 minutes: the
 * test moves the service's clock past it). Spring Security's registration endpoints refuse an older session with 403 before
 * they create options or store a credential; the registration itself runs in a browser ({@link PasskeyIT}).
 */
@IntegrationTest
class PasskeyRegistrationIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    MfaSettings mfa;

    @Autowired
    MovableClock clock;

    static HttpResponse<String> options(WebClient web, String csrf) {
        return web.postRaw("/webauthn/register/options", "", "X-CSRF-TOKEN", csrf);
    }

    @Test
    void anOldSessionConfirmsThePasswordBeforeAddingAPasskey() throws Exception {
        String email = "reciente-" + UUID.randomUUID() + "@example.com";
        accounts.create("Rita", email, "recent-password-1", Role.USER);
        var web = new WebClient(port);
        assertThat(web.login(email, "recent-password-1").statusCode()).isEqualTo(302);

        // just logged in: the page offers the passkey form, and the options are given
        HttpResponse<String> page = web.get("/cuenta/seguridad");
        assertThat(page.body()).contains("id=\"passkey-register-form\"").doesNotContain("id=\"passkey-confirm-form\"");
        String csrf = WebClient.csrfOf(page.body());
        HttpResponse<String> fresh = options(web, csrf);
        assertThat(fresh.statusCode()).isEqualTo(200);
        assertThat(fresh.body()).contains("\"challenge\"").contains("\"userVerification\":\"required\"");

        clock.advance(mfa.recentLogin().plusSeconds(1));
        // the login is older than identity.mfa.recent-login: the password first
        page = web.get("/cuenta/seguridad");
        assertThat(page.body()).contains("id=\"passkey-confirm-form\"").doesNotContain("id=\"passkey-register-form\"");
        HttpResponse<String> stale = options(web, csrf);
        assertThat(stale.statusCode()).isEqualTo(403);
        assertThat(stale.body()).isEqualTo("{\"error\":\"Confirma tu contraseña para añadir una llave de acceso.\"}");
        HttpResponse<String> register = web.postRaw("/webauthn/register", "{\"publicKey\":{}}", "X-CSRF-TOKEN", csrf);
        assertThat(register.statusCode()).isEqualTo(403);

        HttpResponse<String> wrong = web.postForm("/cuenta/seguridad/confirmar", Map.of("contrasena", "not-it",
                "_csrf", csrf));
        assertThat(WebClient.location(wrong)).isEqualTo("/cuenta/seguridad?llave=contrasena");
        assertThat(web.get("/cuenta/seguridad?llave=contrasena").body()).contains("id=\"passkey-wrong-password\"")
                .contains("La contraseña no es correcta.");
        assertThat(options(web, csrf).statusCode()).isEqualTo(403);

        HttpResponse<String> confirmed = web.postForm("/cuenta/seguridad/confirmar",
                Map.of("contrasena", "recent-password-1", "_csrf", csrf));
        assertThat(WebClient.location(confirmed)).isEqualTo("/cuenta/seguridad?llave=confirmada");
        assertThat(web.get("/cuenta/seguridad").body()).contains("id=\"passkey-register-form\"");
        assertThat(options(web, csrf).statusCode()).isEqualTo(200);
    }
}
