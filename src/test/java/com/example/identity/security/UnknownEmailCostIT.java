package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.startsWith;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.timeout;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.mail.Mailer;
import com.example.identity.support.WebClient;

/**
 * An unknown e-mail costs the same Argon2id hash as a wrong password for a known one, so response
 * time does not tell which accounts exist (Spring's DaoAuthenticationProvider hashes against a dummy);
 * and a password recovery request answers in the same time whether or not the address has an account.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
class UnknownEmailCostIT {

    @LocalServerPort
    int port;

    @MockitoSpyBean
    PasswordEncoder passwordEncoder;

    @MockitoSpyBean
    Mailer mailer;

    @Autowired
    AccountService accounts;

    @Autowired
    AccountAdministration administration;

    /** The stock provider answered a disabled account before hashing: faster, so time told it was disabled. */
    @Test
    void aDisabledAccountPaysTheSameArgon2idCheckAsAnEnabledOne() {
        String email = "disabled-cost-" + UUID.randomUUID() + "@example.com";
        var user = accounts.create("Off", email, "disabled-password-1", Role.USER);
        var admin = accounts.findByEmail("admin@example.com").orElseThrow();
        administration.disable(new Caller(admin.getId(), true), user.getId());

        clearInvocations(passwordEncoder);
        var wrong = new WebClient(port).login(email, "some-password");
        verify(passwordEncoder, times(1)).matches(anyString(), startsWith("{argon2}"));
        clearInvocations(passwordEncoder);
        var right = new WebClient(port).login(email, "disabled-password-1");
        verify(passwordEncoder, times(1)).matches(anyString(), startsWith("{argon2}"));
        assertThat(WebClient.location(wrong)).isEqualTo("/login/?error=1");
        assertThat(WebClient.location(right)).as("the same answer").isEqualTo("/login/?error=1");
    }

    @Test
    void unknownAndKnownEmailsBothPayOneArgon2idCheck() {
        clearInvocations(passwordEncoder);
        new WebClient(port).login("nobody-at-all@example.com", "some-password");
        verify(passwordEncoder, times(1)).matches(anyString(), startsWith("{argon2}"));

        clearInvocations(passwordEncoder);
        new WebClient(port).login("dev@example.com", "some-password");
        verify(passwordEncoder, times(1)).matches(anyString(), startsWith("{argon2}"));
    }

    /**
     * {@code /login/recuperar} answers before it looks the address up (decisions §17). Sending the mail is
     * made to cost 300 ms here, so an answer that waited for the lookup and the mail would be at least that
     * much slower for a known address; medians of interleaved tries, a bound of half that.
     */
    @Test
    void aRecoveryRequestTakesTheSameTimeWhetherTheAccountExistsOrNot() {
        doAnswer(invocation -> {
            Thread.sleep(MAIL_COST_MILLIS);
            return invocation.callRealMethod();
        }).when(mailer).send(anyString(), anyString(), anyString(), anyString());
        int tries = 7;
        List<Long> known = new ArrayList<>();
        List<Long> unknown = new ArrayList<>();
        String answer = null;
        for (int i = 0; i <= tries; i++) { // the first pair warms up
            String email = "tiempo-" + UUID.randomUUID() + "@example.com";
            accounts.create("Tiempo", email, "a-recovery-password", Role.USER);
            String nobody = "nadie-" + UUID.randomUUID() + "@example.com";
            // each from its own address: 5 requests per address per 15 minutes
            Timed k;
            Timed u;
            if (i % 2 == 0) {
                k = recoveryRequest(email, "203.0.113." + (2 * i + 1));
                u = recoveryRequest(nobody, "203.0.113." + (2 * i + 2));
            }
            else {
                u = recoveryRequest(nobody, "203.0.113." + (2 * i + 2));
                k = recoveryRequest(email, "203.0.113." + (2 * i + 1));
            }
            assertThat(k.body()).isEqualTo(u.body());
            answer = k.body();
            if (i > 0) {
                known.add(k.millis());
                unknown.add(u.millis());
            }
        }
        assertThat(answer).contains("Si hay una cuenta con esa dirección, te hemos enviado un correo");
        // the slow mail did happen, for every known address, after the answers
        verify(mailer, timeout(20_000).times(tries + 1)).send(anyString(), anyString(), anyString(), anyString());
        long difference = Math.abs(median(known) - median(unknown));
        assertThat(difference).as("median %s ms (known) vs %s ms (unknown): %s vs %s", median(known), median(unknown),
                known, unknown).isLessThan(MAIL_COST_MILLIS / 2);
    }

    static final long MAIL_COST_MILLIS = 300;

    record Timed(long millis, String body) {
    }

    /** One POST to /login/recuperar from {@code address}, timed alone (the form's GET is not). */
    Timed recoveryRequest(String email, String address) {
        var web = new WebClient(port);
        String csrf = web.csrfFrom("/login/recuperar");
        long start = System.nanoTime();
        HttpResponse<String> response = web.postForm("/login/recuperar", Map.of("correo", email, "_csrf", csrf),
                "X-Forwarded-For", address);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(response.statusCode()).isEqualTo(200);
        return new Timed(millis, response.body());
    }

    static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
