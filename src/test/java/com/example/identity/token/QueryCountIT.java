package com.example.identity.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.WebClient;

/**
 * The hot paths' database work, counted with Hibernate statistics: a cached bearer token costs no
 * query; issuing a code costs one; a code exchange a small fixed number, whatever the data (no N+1).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.jpa.properties.hibernate.generate_statistics=true")
@ActiveProfiles("test")
class QueryCountIT {

    @LocalServerPort
    int port;

    @Autowired
    EntityManagerFactory entityManagerFactory;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    Statistics statistics;

    @BeforeEach
    void statistics() {
        statistics = entityManagerFactory.unwrap(SessionFactory.class).getStatistics();
    }

    long queries() {
        return statistics.getPrepareStatementCount();
    }

    @Test
    void userinfoCostsOneQueryThenNone() {
        var owner = accounts.create("Q", "q-" + UUID.randomUUID() + "@example.com", "query-password-1", Role.DEVELOPER_API);
        String token = tokens.createPersonal(owner.getId(), "q").value();
        var web = new WebClient(port);

        statistics.clear();
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        assertThat(queries()).as("first call: the lookup and the last-use stamp").isEqualTo(2);

        statistics.clear();
        for (int i = 0; i < 20; i++) {
            web.get("/api/userinfo.php", "Authorization", "Bearer " + token);
        }
        assertThat(queries()).as("cached: no query at all").isZero();
    }

    /** A caller repeating an unknown token (a game with a stale token) is answered from the negative cache. */
    @Test
    void aRepeatedUnknownTokenCostsOneQueryThenNone() {
        String unknown = com.example.identity.crypto.Secrets.randomHex(32);
        var web = new WebClient(port);

        statistics.clear();
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + unknown).statusCode()).isEqualTo(401);
        assertThat(queries()).as("first time: the lookup").isEqualTo(1);

        statistics.clear();
        for (int i = 0; i < 20; i++) {
            assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + unknown).statusCode()).isEqualTo(401);
        }
        assertThat(queries()).as("remembered as unknown: no query at all").isZero();

        statistics.clear();
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer not-even-hex").statusCode()).isEqualTo(401);
        assertThat(queries()).as("malformed: never a query").isZero();
    }

    /** A token that exists but is revoked is looked up each time (its state can change), never cached as unknown. */
    @Test
    void aMintedTokenIsNeverTakenForUnknown() {
        var owner = accounts.create("M", "m-" + UUID.randomUUID() + "@example.com", "query-password-1", Role.DEVELOPER_API);
        var web = new WebClient(port);
        for (int i = 0; i < 20; i++) {
            String token = tokens.createPersonal(owner.getId(), "m" + i).value();
            assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void codeExchangeCostsASmallFixedNumberOfQueries() {
        long dev = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(dev, "Q", "https://q.example/cb");
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        Map<String, String> form = new java.util.HashMap<>(Map.of("grant_type", "authorization_code", "redirect_uri",
                client.redirectUri(), "client_id", client.clientId(), "client_secret", client.clientSecret()));

        long[] counts = new long[3];
        long[] transactions = new long[3];
        long[] authorizeCounts = new long[3];
        long[] authorizeTransactions = new long[3];
        for (int i = 0; i < 3; i++) {
            statistics.clear();
            var redirect = web.get("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()
                    + "&redirect_uri=https%3A%2F%2Fq.example%2Fcb&scope=openid%20email%20profile&state=s&nonce=n");
            authorizeCounts[i] = queries();
            authorizeTransactions[i] = statistics.getTransactionCount();
            form.put("code", UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams()
                    .getFirst("code"));
            statistics.clear();
            assertThat(web.postForm("/oauth/token.php", form).statusCode()).isEqualTo(200);
            counts[i] = queries();
            transactions[i] = statistics.getTransactionCount();
        }
        assertThat(counts[1]).as("every exchange costs the same").isEqualTo(counts[2]);
        assertThat(counts[2]).as("code lookup, user, mark used, token insert").isEqualTo(4);
        assertThat(transactions).as("all four in one transaction, and no session read: one commit per exchange")
                .containsOnly(1L);
        assertThat(authorizeTransactions).as("the session's one read (web/SessionStore: its last access is not written"
                + " again within a minute) and the code's insert").containsOnly(2L);
        assertThat(new long[] {authorizeCounts[1], authorizeCounts[2]})
                .as("once the client is cached, a code is one INSERT (the session is in memory)").containsOnly(1L);
    }
}
