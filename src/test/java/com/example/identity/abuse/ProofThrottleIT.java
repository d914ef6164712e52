package com.example.identity.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.mfa.TotpCodes;
import com.example.identity.support.WebClient;

/**
 * Every proof of who one is counts in the login throttle alike (decisions §3, §17): a wrong code at the
 * login's second step is a failure of that (e-mail, address) pair as a wrong password is, a right password
 * forgives nothing until the whole login is done, and every form of a logged-in user that checks the current
 * password is refused while the pair is locked. The shipped pair budget (5), without the growing delays
 * (so that the test does not sleep); other addresses are played with {@code X-Forwarded-For} from the
 * trusted loopback proxy.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "identity.login.max-failures-per-pair=5", "identity.login.max-failures-per-account=100",
        "identity.login.max-failures-per-address=100", "identity.login.delay-base=0s" })
@ActiveProfiles("test")
class ProofThrottleIT {

    static final String PASSWORD = "proof-password-1";
    static final String LOCKED_LOGIN = "Demasiados intentos. Espera un momento e inténtalo de nuevo más tarde.";
    static final String LOCKED_FORM = "Demasiados intentos fallidos. Espera unos minutos antes de volver a intentarlo.";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    SecondFactors factors;

    @Autowired
    JdbcTemplate jdbc;

    String newAccount() {
        String email = "proof-" + UUID.randomUUID() + "@example.com";
        accounts.create("Prueba", email, PASSWORD, Role.USER);
        return email;
    }

    /** Turns TOTP on for the account, as its app would; returns the secret. */
    String withTotp(String email) {
        String secret = factors.newSecret();
        long id = accounts.findByEmail(email).orElseThrow().getId();
        assertThat(factors.enable(id, secret, TotpCodes.now(secret, 0))).hasSize(10);
        return secret;
    }

    /** A password login of {@code web} from {@code address}: where it is sent. */
    static String loginFrom(WebClient web, String address, String email, String password) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("username", email);
        form.put("password", password);
        form.put("_csrf", web.csrfFrom("/login/"));
        return WebClient.location(web.postForm("/login/", form, "X-Forwarded-For", address));
    }

    static HttpResponse<String> secondStep(WebClient web, String address, String code) {
        return web.postForm("/login/segundo-paso", Map.of("codigo", code, "_csrf", web.csrfFrom("/login/segundo-paso")),
                "X-Forwarded-For", address);
    }

    /** A six-digit code that is none of the secret's codes around now. */
    static String wrongCode(String secret) {
        Set<String> near = Set.of(TotpCodes.now(secret, -1), TotpCodes.now(secret, 0), TotpCodes.now(secret, 1),
                TotpCodes.now(secret, 2));
        for (int i = 0;; i++) {
            String code = String.format("%06d", 111111 * (i % 9 + 1) % 1_000_000);
            if (!near.contains(code)) {
                return code;
            }
        }
    }

    @Test
    void wrongSecondStepCodesCountLikeWrongPasswordsAndARightPasswordForgivesNothing() {
        String email = newAccount();
        String secret = withTotp(email);
        String wrong = wrongCode(secret);
        String address = "203.0.113.80";

        var first = new WebClient(port);
        assertThat(loginFrom(first, address, email, PASSWORD)).isEqualTo("/login/segundo-paso");
        for (int i = 0; i < 4; i++) {
            assertThat(secondStep(first, address, wrong).statusCode()).isEqualTo(400);
        }
        // the password again: it does not clear the four wrong codes (the login is not done yet)
        var second = new WebClient(port);
        assertThat(loginFrom(second, address, email, PASSWORD)).isEqualTo("/login/segundo-paso");
        assertThat(secondStep(second, address, wrong).statusCode()).as("the pair's 5th failure").isEqualTo(400);

        // locked: even the right code is refused, as the login page refuses the right password
        HttpResponse<String> refused = secondStep(second, address, TotpCodes.now(secret, 1));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains(LOCKED_LOGIN);
        assertThat(loginFrom(new WebClient(port), address, email, PASSWORD)).isEqualTo("/login/?bloqueado=1");
        assertThat(new WebClient(port).get("/login/?bloqueado=1").body()).contains(LOCKED_LOGIN);
        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'LOGIN_LOCKED' and actor = ?",
                Integer.class, email)).as("the lock is audited once").isEqualTo(1);

        // the owner, from another address, is not kept out
        var owner = new WebClient(port);
        assertThat(loginFrom(owner, "198.51.100.80", email, PASSWORD)).isEqualTo("/login/segundo-paso");
        HttpResponse<String> done = secondStep(owner, "198.51.100.80", TotpCodes.now(secret, 1));
        assertThat(done.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(done)).isEqualTo("/");
    }

    @Test
    void aLockedPairIsRefusedAtTheSecondStepWhateverLockedIt() {
        String email = newAccount();
        String secret = withTotp(email);
        String address = "203.0.113.81";
        var web = new WebClient(port);
        assertThat(loginFrom(web, address, email, PASSWORD)).isEqualTo("/login/segundo-paso");
        // meanwhile someone at the same address guesses the password five times
        for (int i = 0; i < 5; i++) {
            assertThat(loginFrom(new WebClient(port), address, email, "guess-" + i)).isEqualTo("/login/?error=1");
        }
        HttpResponse<String> refused = secondStep(web, address, TotpCodes.now(secret, 1));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains(LOCKED_LOGIN);
    }

    /** A POST of a logged-in user's form from {@code address}, with the CSRF token of {@code page}. */
    static HttpResponse<String> post(WebClient web, String address, String page, String path, Map<String, String> fields) {
        Map<String, String> form = new LinkedHashMap<>(fields);
        form.put("_csrf", web.csrfFrom(page));
        return web.postForm(path, form, "X-Forwarded-For", address);
    }

    @Test
    void everyFormThatChecksThePasswordCountsAndIsRefusedOnceThePairIsLocked() {
        String email = newAccount();
        String address = "203.0.113.82";
        var web = new WebClient(port);
        assertThat(loginFrom(web, address, email, PASSWORD)).isEqualTo("/");
        withTotp(email); // this session stays logged in; the recovery codes' form needs TOTP on
        // nothing refused yet: no page says so (th:replace runs before th:if on one element, so the
        // message once showed on every visit)
        for (String page : new String[] { "/cuenta/", "/cuenta/seguridad", "/cuenta/seguridad/totp" }) {
            assertThat(web.get(page).body()).as(page).doesNotContain(LOCKED_FORM).doesNotContain("id=\"throttled\"");
        }

        // five wrong passwords spread over three forms lock the pair
        String otherAddress = "nuevo-" + UUID.randomUUID() + "@example.com";
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> wrong = post(web, address, "/cuenta/", "/cuenta/correo",
                    Map.of("correo", otherAddress, "contrasena", "guess-" + i));
            assertThat(wrong.statusCode()).isEqualTo(400);
            assertThat(wrong.body()).contains("La contraseña no es correcta");
        }
        for (int i = 0; i < 2; i++) {
            assertThat(WebClient.location(post(web, address, "/cuenta/seguridad", "/cuenta/seguridad/totp/codigos",
                    Map.of("contrasena", "guess-" + i)))).isEqualTo("/cuenta/seguridad?contrasena=mal");
        }
        assertThat(WebClient.location(post(web, address, "/cuenta/seguridad", "/cuenta/seguridad/totp/desactivar",
                Map.of("contrasena", "guess")))).isEqualTo("/cuenta/seguridad?contrasena=mal");

        // now each of them refuses even the right password, before checking it
        HttpResponse<String> email2 = post(web, address, "/cuenta/", "/cuenta/correo",
                Map.of("correo", otherAddress, "contrasena", PASSWORD));
        assertThat(WebClient.location(email2)).isEqualTo("/cuenta/?bloqueado=1");
        assertThat(web.get("/cuenta/?bloqueado=1").body()).contains(LOCKED_FORM);
        assertThat(WebClient.location(post(web, address, "/cuenta/seguridad", "/cuenta/seguridad/totp/codigos",
                Map.of("contrasena", PASSWORD)))).isEqualTo("/cuenta/seguridad?bloqueado=1");
        assertThat(WebClient.location(post(web, address, "/cuenta/seguridad", "/cuenta/seguridad/totp/desactivar",
                Map.of("contrasena", PASSWORD)))).isEqualTo("/cuenta/seguridad?bloqueado=1");
        assertThat(WebClient.location(post(web, address, "/cuenta/seguridad", "/cuenta/seguridad/confirmar",
                Map.of("contrasena", PASSWORD)))).isEqualTo("/cuenta/seguridad?bloqueado=1");
        assertThat(web.get("/cuenta/seguridad?bloqueado=1").body()).contains(LOCKED_FORM);
        assertThat(WebClient.location(post(web, address, "/cuenta/seguridad/totp", "/cuenta/seguridad/totp",
                Map.of("contrasena", PASSWORD, "codigo", "123456")))).isEqualTo("/cuenta/seguridad/totp?bloqueado=1");
        assertThat(web.get("/cuenta/seguridad/totp?bloqueado=1").body()).contains(LOCKED_FORM);
        assertThat(WebClient.location(post(web, address, "/cuenta/contrasena", "/cuenta/contrasena",
                Map.of("actual", PASSWORD, "nueva", "another-password-1", "repetida", "another-password-1"))))
                .isEqualTo("/cuenta/contrasena?bloqueado=1");
        assertThat(loginFrom(new WebClient(port), address, email, PASSWORD)).isEqualTo("/login/?bloqueado=1");

        // nothing changed: TOTP is still on, and the address is the old one
        long id = accounts.findByEmail(email).orElseThrow().getId();
        assertThat(factors.hasTotp(id)).isTrue();
        assertThat(jdbc.queryForObject("select count(*) from email_changes where user_id = ?", Integer.class, id)).isZero();
    }
}
