package com.example.identity.apitoken;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.WebClient;

/**
 * The hot paths' database work, counted at the JDBC level (datasource-proxy around the pool: every statement,
 * whether Hibernate, Spring Session or a JdbcTemplate sends it, and every commit): a cached bearer token
 * costs no query; issuing a code costs one statement; a code exchange a small fixed number, whatever the
 * data (no N+1).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
class QueryCountIT {

    static final AtomicLong STATEMENTS = new AtomicLong();
    static final AtomicLong COMMITS = new AtomicLong();
    /**
     * PostgreSQL NOTIFYs sent (common/CacheInvalidation): on PostgreSQL a failure spent from a shared budget
     * is told to the other instances, one {@code pg_notify} per failure (decisions §13). Counted apart from
     * the lookups; on H2 (one instance) there are none.
     */
    static final AtomicLong NOTIFIES = new AtomicLong();
    /** Set while the thread serves an HTTP request: background jobs (the key version poll) are not counted. */
    static final ThreadLocal<Boolean> SERVING = ThreadLocal.withInitial(() -> false);

    @TestConfiguration
    static class CountingDataSource {

        @Bean
        static BeanPostProcessor countStatements() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    if (!(bean instanceof DataSource dataSource) || bean instanceof net.ttddyy.dsproxy.support.ProxyDataSource) {
                        return bean;
                    }
                    return net.ttddyy.dsproxy.support.ProxyDataSourceBuilder.create("counted", dataSource)
                            .afterQuery((execution, queries) -> {
                                if (SERVING.get()) {
                                    for (var query : queries) {
                                        boolean notify = query.getQuery().startsWith("select pg_notify(");
                                        (notify ? NOTIFIES : STATEMENTS).incrementAndGet();
                                    }
                                }
                            })
                            .afterMethod(call -> {
                                if (SERVING.get() && call.getMethod().getName().equals("commit")) {
                                    COMMITS.incrementAndGet();
                                }
                            })
                            .build();
                }
            };
        }

        @Bean
        org.springframework.boot.web.servlet.FilterRegistrationBean<jakarta.servlet.Filter> markServing() {
            var registration = new org.springframework.boot.web.servlet.FilterRegistrationBean<jakarta.servlet.Filter>(
                    (request, response, chain) -> {
                        SERVING.set(true);
                        try {
                            chain.doFilter(request, response);
                        }
                        finally {
                            SERVING.set(false);
                        }
                    });
            registration.setOrder(org.springframework.core.Ordered.HIGHEST_PRECEDENCE);
            return registration;
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    AccountService accounts;

    @Autowired
    ClientService clients;

    static void clear() {
        STATEMENTS.set(0);
        COMMITS.set(0);
        NOTIFIES.set(0);
    }

    static long queries() {
        return STATEMENTS.get();
    }

    @Test
    void userinfoCostsOneQueryThenNone() {
        var owner = accounts.create("Q", "q-" + UUID.randomUUID() + "@example.com", "query-password-1", Role.DEVELOPER_API);
        String token = tokens.createPersonal(owner.getId(), "q").value();
        var web = new WebClient(port);

        clear();
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        assertThat(queries()).as("first call: the lookup and the last-use stamp").isEqualTo(2);

        clear();
        for (int i = 0; i < 20; i++) {
            web.get("/api/userinfo.php", "Authorization", "Bearer " + token);
        }
        assertThat(queries()).as("cached: no query at all").isZero();
        assertThat(NOTIFIES.get()).as("a success spends no shared budget: no NOTIFY either").isZero();
    }

    /**
     * A caller repeating an unknown token (a game with a stale token) is answered from the negative cache: no
     * lookup. Each refusal still spends one failure of the address's {@code unknown-tokens-per-minute} budget,
     * which on PostgreSQL is told to the other instances by one NOTIFY (decisions §13: the budget counts as
     * one across instances); on H2 nothing is sent.
     */
    @Test
    void aRepeatedUnknownTokenCostsOneQueryThenNone() {
        String unknown = com.example.identity.crypto.Secrets.randomHex(32);
        var web = new WebClient(port);
        long notifiesPerFailure = onPostgres() ? 1 : 0;

        clear();
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + unknown).statusCode()).isEqualTo(401);
        assertThat(queries()).as("first time: the lookup").isEqualTo(1);
        assertThat(NOTIFIES.get()).as("the failure told to the other instances").isEqualTo(notifiesPerFailure);

        clear();
        for (int i = 0; i < 20; i++) {
            assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + unknown).statusCode()).isEqualTo(401);
        }
        assertThat(queries()).as("remembered as unknown: no lookup at all").isZero();
        assertThat(NOTIFIES.get()).as("each failure told once").isEqualTo(20 * notifiesPerFailure);

        clear();
        assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer not-even-hex").statusCode()).isEqualTo(401);
        assertThat(queries()).as("malformed: never a lookup").isZero();
        assertThat(NOTIFIES.get()).as("a malformed token is a failure too").isEqualTo(notifiesPerFailure);
    }

    @Autowired
    DataSource dataSource;

    boolean onPostgres() {
        try (var connection = dataSource.getConnection()) {
            return connection.getMetaData().getDatabaseProductName().equals("PostgreSQL");
        }
        catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
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
        var client = com.example.identity.support.FirstParty.register(clients, dev, "Q", "https://q.example/cb");
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        Map<String, String> form = new java.util.HashMap<>(Map.of("grant_type", "authorization_code", "redirect_uri",
                client.redirectUri(), "client_id", client.clientId(), "client_secret", client.clientSecret()));

        long[] counts = new long[3];
        long[] transactions = new long[3];
        long[] authorizeCounts = new long[3];
        long[] authorizeTransactions = new long[3];
        for (int i = 0; i < 3; i++) {
            clear();
            var redirect = web.get("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()
                    + "&redirect_uri=https%3A%2F%2Fq.example%2Fcb&scope=openid%20email%20profile&state=s&nonce=n");
            authorizeCounts[i] = queries();
            authorizeTransactions[i] = COMMITS.get();
            form.put("code", UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams()
                    .getFirst("code"));
            clear();
            assertThat(web.postForm("/oauth/token.php", form).statusCode()).isEqualTo(200);
            counts[i] = queries();
            transactions[i] = COMMITS.get();
        }
        assertThat(counts[1]).as("every exchange costs the same").isEqualTo(counts[2]);
        assertThat(counts[2]).as("code lookup with its owner (one join, the session's sid for the id_token included), "
                + "mark used, token insert").isEqualTo(3);
        assertThat(transactions).as("all three in one transaction, and no session read: one commit per exchange")
                .containsOnly(1L);
        assertThat(new long[] {authorizeCounts[1], authorizeCounts[2]})
                .as("once the client is cached: the session's one read (session/SessionStore: its last access is not "
                        + "written again within a minute) and the code's INSERT, the session's sid in it (made at the "
                        + "first, the session's attribute is not written again)").containsOnly(2L);
        assertThat(new long[] {authorizeTransactions[1], authorizeTransactions[2]})
                .as("the session's read in its transaction; the code's INSERT commits by itself").containsOnly(1L);
    }

    /**
     * A ticket for a game server (decisions §25) is a hot path, one per match join: once the player's token and the
     * two applications are in their caches, a ticket reads nothing and writes nothing (the token's last use is
     * stamped at most once a minute, as at UserInfo).
     */
    @Test
    void aTicketCostsNoStatementOnceTheTokenAndTheApplicationsAreCached() {
        long dev = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var game = com.example.identity.support.FirstParty.register(clients, dev, "T", "https://t.example/cb");
        var server = clients.register(dev, "S", null, java.util.List.of(), com.example.identity.client.ClientType.SERVER);
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        var redirect = web.get("/oauth/authorize.php?response_type=code&client_id=" + game.clientId()
                + "&redirect_uri=https%3A%2F%2Ft.example%2Fcb&scope=openid&state=s");
        String code = UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams().getFirst("code");
        var exchanged = web.postForm("/oauth/token.php", Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", game.redirectUri(), "client_id", game.clientId(), "client_secret", game.clientSecret()));
        String token = com.example.identity.support.ApiAssertions.json(exchanged).get("access_token").asString();
        Map<String, String> ticket = Map.of("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange",
                "subject_token", token, "subject_token_type", "urn:ietf:params:oauth:token-type:access_token",
                "audience", server.clientId(), "client_id", game.clientId(), "client_secret", game.clientSecret());
        assertThat(web.postForm("/oauth/token.php", ticket).statusCode()).isEqualTo(200);

        clear();
        for (int i = 0; i < 20; i++) {
            assertThat(web.postForm("/oauth/token.php", ticket).statusCode()).isEqualTo(200);
        }
        assertThat(queries()).as("cached: no query at all").isZero();
        assertThat(COMMITS.get()).as("and no transaction").isZero();
        assertThat(NOTIFIES.get()).isZero();
    }

    /**
     * DPoP (decisions §28): a token bound to a key, at {@code /api/userinfo.php} with a new proof each time, costs the
     * proof's signature and one statement, the INSERT of its {@code jti} (autocommitted: no transaction); the token's
     * lookup stays cached. A code exchange with a proof costs that INSERT more than one without.
     */
    @Test
    void aBoundTokenCostsOneInsertPerCallAndItsExchangeOneMore() {
        long dev = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = com.example.identity.support.FirstParty.register(clients, dev, "D", "https://d.example/cb");
        var key = com.example.identity.support.DPoPKey.generate();
        // the proofs name the issuer's URLs (identity.issuer), whatever address this test reaches the service at
        String issuer = "http://localhost:8080";
        var web = new WebClient(port);
        web.login("dev@example.com", "dev-demo-password");
        Map<String, String> form = new java.util.HashMap<>(Map.of("grant_type", "authorization_code", "redirect_uri",
                client.redirectUri(), "client_id", client.clientId(), "client_secret", client.clientSecret()));
        long[] exchanges = new long[2];
        String token = null;
        for (int i = 0; i < 2; i++) {
            var redirect = web.get("/oauth/authorize.php?response_type=code&client_id=" + client.clientId()
                    + "&redirect_uri=https%3A%2F%2Fd.example%2Fcb&scope=openid&state=s");
            form.put("code", UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams()
                    .getFirst("code"));
            clear();
            var exchanged = web.postForm("/oauth/token.php", form, "DPoP", key.proof("POST", issuer + "/oauth/token.php"));
            assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(200);
            exchanges[i] = queries();
            token = com.example.identity.support.ApiAssertions.json(exchanged).get("access_token").asString();
        }
        assertThat(exchanges[1]).as("the proof's jti, then the exchange's three").isEqualTo(4);
        String url = issuer + "/api/userinfo.php";
        assertThat(web.get("/api/userinfo.php", "Authorization", "DPoP " + token, "DPoP", key.proof("GET", url, token))
                .statusCode()).isEqualTo(200);

        clear();
        for (int i = 0; i < 20; i++) {
            assertThat(web.get("/api/userinfo.php", "Authorization", "DPoP " + token, "DPoP", key.proof("GET", url, token))
                    .statusCode()).isEqualTo(200);
        }
        assertThat(queries()).as("the token cached: each call one INSERT, its proof's jti").isEqualTo(20);
        assertThat(COMMITS.get()).as("autocommitted, no transaction").isZero();
        assertThat(NOTIFIES.get()).isZero();
    }
}
