package com.example.identity.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

import com.example.identity.IdentityProperties;
import com.example.identity.account.AccountService;
import com.example.identity.crypto.Secrets;
import com.example.identity.account.Role;
import com.example.identity.support.MovableClock;
import com.example.identity.support.WebClient;

/**
 * The login throttle over HTTP with the shipped defaults of {@code identity.login.*} (the test profile's
 * raised budgets are put back), in a context of its own. Other source addresses are played with
 * {@code X-Forwarded-For} from 127.0.0.1, which the embedded Tomcat trusts as an internal proxy.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "identity.login.max-failures-per-pair=5", "identity.login.max-failures-per-account=100",
        "identity.login.max-failures-per-address=100", "identity.login.delay-base=1s" })
@ActiveProfiles("test")
class LoginThrottleIT {

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    LoginThrottle throttle;

    @Autowired
    JdbcTemplate jdbc;

    String newAccount(String password) {
        String email = "throttle-" + UUID.randomUUID() + "@example.com";
        accounts.create("Throttle", email, password, Role.USER);
        return email;
    }

    /** A login POST from {@code address} (through X-Forwarded-For), in a browser of its own. */
    String loginFrom(String address, String email, String password) {
        var web = new WebClient(port);
        String csrf = web.csrfFrom("/login/");
        Map<String, String> form = new LinkedHashMap<>();
        form.put("username", email);
        form.put("password", password);
        form.put("_csrf", csrf);
        return WebClient.location(web.postForm("/login/", form, "X-Forwarded-For", address));
    }

    @Test
    void thirtyFailuresOnDifferentAccountsFromOneAddressDoNotStopAnotherAccountThere() {
        String player = newAccount("player-password-1");
        for (int i = 0; i < 30; i++) {
            assertThat(loginFrom("100.64.1.1", "mistyped-" + i + "-" + UUID.randomUUID() + "@example.com", "guess"))
                    .isEqualTo("/login/?error=1");
        }
        assertThat(loginFrom("100.64.1.1", player, "player-password-1")).as("a neighbour behind the same NAT")
                .isEqualTo("/");
    }

    @Test
    void aStrangersFailuresOnAKnownEmailFromOtherAddressesDoNotStopTheOwner() {
        String owner = newAccount("owner-password-1");
        for (int a = 0; a < 8; a++) {
            for (int i = 0; i < 2; i++) {
                assertThat(loginFrom("203.0.113." + a, owner, "guess-" + i)).isEqualTo("/login/?error=1");
            }
        }
        assertThat(loginFrom("198.51.100.20", owner, "owner-password-1")).as("16 failures from 8 other addresses")
                .isEqualTo("/");
    }

    @Test
    void fiveFailuresLockThePairNotTheAccountElsewhereWithTheSameAnswerForUnknownAccounts() throws Exception {
        String email = newAccount("right-password-1");
        String unknown = "nobody-" + UUID.randomUUID() + "@example.com";
        for (int i = 0; i < 5; i++) {
            assertThat(loginFrom("203.0.113.50", email, "wrong-" + i)).isEqualTo("/login/?error=1");
            assertThat(loginFrom("203.0.113.50", unknown, "wrong-" + i)).isEqualTo("/login/?error=1");
            if (i >= 1 && i < 4) {
                clock.advance(Duration.ofMillis(1000L << (i - 1))); // the pair's growing delay: 1 s, 2 s, 4 s
            }
        }
        assertThat(loginFrom("203.0.113.50", email, "right-password-1")).isEqualTo("/login/?bloqueado=1");
        assertThat(loginFrom("203.0.113.50", unknown, "whatever")).isEqualTo("/login/?bloqueado=1");
        assertThat(new WebClient(port).get("/login/?bloqueado=1").body()).contains("Demasiados intentos");
        assertThat(loginFrom("198.51.100.21", email, "right-password-1")).as("the owner from elsewhere").isEqualTo("/");

        assertThat(jdbc.queryForObject("select count(*) from audit_events where event = 'LOGIN_LOCKED' and actor = ?",
                Integer.class, email)).as("one row for the lock").isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            assertThat(loginFrom("203.0.113.50", email, "again-" + i)).isEqualTo("/login/?bloqueado=1");
        }
        throttle.flushRefused(); // also runs every minute on its own: the 4 refusals may be split over two rows
        var rows = jdbc.queryForList("select subject from audit_events where event = 'LOGIN_REFUSED' and actor = ?",
                String.class, email);
        assertThat(rows).as("refusals counted, not one row each").hasSizeBetween(1, 2)
                .allSatisfy(row -> assertThat(row).matches("[1-4] intentos rechazados"));
        assertThat(rows.stream().mapToInt(row -> Integer.parseInt(row.split(" ")[0])).sum()).isEqualTo(4);
    }

    @Test
    void theCurrentPasswordCheckOfThePasswordFormIsThrottledLikeTheLogin() throws Exception {
        String email = newAccount("current-password-1");
        var web = new WebClient(port);
        assertThat(WebClient.location(web.login(email, "current-password-1"))).isEqualTo("/");
        String csrf = web.csrfFrom("/cuenta/contrasena");
        for (int i = 0; i < 5; i++) {
            var wrong = web.postForm("/cuenta/contrasena", Map.of("actual", "guess-" + i, "nueva", "new-password-123",
                    "repetida", "new-password-123", "_csrf", csrf));
            assertThat(wrong.body()).contains("La contraseña actual no es correcta");
            if (i >= 1 && i < 4) {
                clock.advance(Duration.ofMillis(1000L << (i - 1)));
            }
        }
        var refused = web.postForm("/cuenta/contrasena", Map.of("actual", "current-password-1", "nueva",
                "new-password-123", "repetida", "new-password-123", "_csrf", csrf));
        assertThat(WebClient.location(refused)).isEqualTo("/cuenta/contrasena?bloqueado=1");
        assertThat(web.get("/cuenta/contrasena?bloqueado=1").body())
                .contains("Demasiados intentos fallidos. Espera unos minutos antes de volver a intentarlo.");
        assertThat(WebClient.location(new WebClient(port).login(email, "current-password-1")))
                .as("the same pair at the login form").isEqualTo("/login/?bloqueado=1");
        assertThat(loginFrom("198.51.100.30", email, "current-password-1")).as("the owner elsewhere").isEqualTo("/");
    }

    @Test
    void theSecondFailureOfAPairDelaysItsNextAttemptOnly() {
        String email = newAccount("delay-password-1");
        loginFrom("203.0.113.60", email, "wrong-1");
        loginFrom("203.0.113.60", email, "wrong-2");
        assertThat(loginFrom("203.0.113.60", email, "delay-password-1")).isEqualTo("/login/?bloqueado=1");
        assertThat(loginFrom("203.0.113.61", email, "delay-password-1")).isEqualTo("/");
    }

    @Autowired
    LoginPairs loginPairs;

    @Autowired
    IdentityProperties properties;

    @Autowired
    MovableClock clock;

    /** This context's throttle as an instance started now on the same database would build it. */
    LoginThrottle startedNow() {
        return new LoginThrottle(properties, clock, event -> { }, (topic, message) -> { }, loginPairs);
    }

    @Test
    void aLockAndAKnownAddressOutliveTheInstanceThatMadeThemStoredAsDigests() {
        String email = newAccount("lasting-password-1");
        String knownEmail = newAccount("known-password-1");
        for (int i = 0; i < 5; i++) {
            throttle.recordFailure(email, "203.0.113.70");
        }
        assertThat(throttle.isBlocked(email, "203.0.113.70")).isTrue();
        assertThat(loginFrom("198.51.100.70", knownEmail, "known-password-1")).isEqualTo("/");

        var later = startedNow();
        assertThat(later.isBlocked(email, "203.0.113.70")).as("the lock, at an instance started after it").isTrue();
        assertThat(later.isBlocked(email, "203.0.113.71")).isFalse();
        // the known address is exempt from the address-wide delays there too: spend the address's budget
        for (int i = 0; i < 101; i++) {
            later.recordFailure("spray-" + i + "@example.com", "198.51.100.70");
        }
        assertThat(later.isBlocked("newcomer@example.com", "198.51.100.70")).as("a stranger there waits").isTrue();
        assertThat(later.isBlocked(knownEmail, "198.51.100.70")).as("the known pair does not").isFalse();

        assertThat(jdbc.queryForObject("select count(*) from login_pairs where pair_digest = ?", Integer.class,
                Secrets.sha256Hex(email + "|203.0.113.70"))).isEqualTo(1);
        assertThat(jdbc.queryForObject("select count(*) from login_pairs where pair_digest like ? or pair_digest like ?",
                Integer.class, "%@%", "%203.0.113%")).as("nothing in the clear").isZero();

        // a success ends the lock for instances started after it as well
        throttle.recordSuccess(email, "203.0.113.70");
        assertThat(startedNow().isBlocked(email, "203.0.113.70")).isFalse();
    }

    /**
     * Issue 39, as measured from outside: twelve logins of one account from one address with the right password
     * at once (a studio's test bots, a family behind one router) all log in with the shipped delays on; before,
     * the attempts that would have been one too many had all the others failed were refused as locked.
     */
    @Test
    void twelveSimultaneousRightPasswordsOfOnePairAllLogIn() throws Exception {
        String email = newAccount("family-password-1");
        int logins = 12;
        ExecutorService pool = Executors.newFixedThreadPool(logins);
        try {
            var go = new CountDownLatch(1);
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < logins; i++) {
                var web = new WebClient(port);
                String csrf = web.csrfFrom("/login/");
                answers.add(pool.submit(() -> {
                    assertThat(go.await(30, TimeUnit.SECONDS)).isTrue();
                    return WebClient.location(web.postForm("/login/", Map.of("username", email, "password",
                            "family-password-1", "_csrf", csrf), "X-Forwarded-For", "100.64.9.9"));
                }));
            }
            go.countDown();
            for (var answer : answers) {
                assertThat(answer.get(60, TimeUnit.SECONDS)).isEqualTo("/");
            }
        }
        finally {
            pool.shutdownNow();
        }
        assertThat(throttle.waiting(email, "100.64.9.9")).isZero();
    }
}
