package com.example.identity.registration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.account.AccountService;
import com.example.identity.support.Cluster;
import com.example.identity.support.MailFiles;
import com.example.identity.support.WebClient;

/**
 * Sign-up on two instances of one database (decisions §13, §18): a link asked for on one is used on the other,
 * and the session it opens works on both; the mails per address are counted once for both; on PostgreSQL the
 * requests of one client address too (spent on every instance).
 */
class RegistrationTwoInstancesIT {

    static Cluster cluster;

    @BeforeAll
    static void start() {
        cluster = Cluster.onSharedDatabase(2);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static HttpResponse<String> signUp(int node, String correo, String from) {
        var web = new WebClient(cluster.port(node));
        return web.postForm("/registro", Map.of("correo", correo, "primer_nombre", "Nodo", "password",
                "a-long-password-1", "fecha_nacimiento", "1990-05-17", "_csrf", web.csrfFrom("/registro")), "X-Forwarded-For", from);
    }

    @Test
    void aLinkAskedForOnOneInstanceWorksOnTheOtherAndItsSessionOnBoth() throws Exception {
        String correo = "nodo-" + UUID.randomUUID() + "@example.com";
        assertThat(signUp(0, correo, "192.0.2.10").statusCode()).isEqualTo(200);
        String token = MailFiles.link(MailFiles.newest(correo, "Confirma tu cuenta"),
                Pattern.compile("/registro/confirmar\\?token=([A-Za-z0-9_-]{43})"));

        var atB = new WebClient(cluster.port(1));
        HttpResponse<String> landing = atB.get("/registro/confirmar?token=" + token);
        assertThat(landing.statusCode()).isEqualTo(200);
        HttpResponse<String> created = atB.postForm("/registro/confirmar", Map.of("token", token, "_csrf",
                WebClient.csrfOf(landing.body())));
        assertThat(created.statusCode()).isEqualTo(302);
        assertThat(atB.get("/cuenta/").statusCode()).isEqualTo(200);
        assertThat(atB.at(cluster.port(0)).get("/cuenta/").body()).contains(correo);
        assertThat(cluster.bean(0, AccountService.class).findByEmail(correo).orElseThrow().isEmailVerified()).isTrue();
    }

    @Test
    void theMailsOfOneAddressAreCountedOnceForBothInstances() {
        String correo = "nodo-" + UUID.randomUUID() + "@example.com";
        for (int i = 0; i < 4; i++) {
            assertThat(signUp(i % 2, correo, "192.0.2." + (20 + i)).statusCode()).isEqualTo(200);
        }
        JdbcTemplate jdbc = cluster.bean(0, JdbcTemplate.class);
        // the background threads of both instances took the budget under one lock: 3 rows, never 4
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> jdbc.queryForObject(
                "select count(*) from pending_registrations where correo = ?", Long.class, correo) == 3);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> jdbc.queryForObject(
                "select count(*) from pending_registrations where correo = ?", Long.class, correo) == 3);
    }

    @Test
    void onPostgresTheRequestsOfOneClientAddressAreSpentOnBothInstances() {
        assumeTrue(Cluster.onPostgres(), "PostgreSQL's notifications carry the spent budget to the other instance");
        String from = "198.51.100." + (1 + (int) (Math.random() * 250));
        for (int i = 0; i < 5; i++) {
            assertThat(signUp(i % 2, "c" + i + "-" + UUID.randomUUID() + "@example.com", from).statusCode()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(
                () -> signUp(1, "x-" + UUID.randomUUID() + "@example.com", from).statusCode() == 429
                        && signUp(0, "y-" + UUID.randomUUID() + "@example.com", from).statusCode() == 429);
    }
}
