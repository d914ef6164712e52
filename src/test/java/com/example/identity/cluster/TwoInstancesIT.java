package com.example.identity.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.abuse.LoginThrottle;
import com.example.identity.abuse.RateLimits;
import com.example.identity.account.AccountService;
import com.example.identity.client.ClientService;
import com.example.identity.common.CacheInvalidation;
import com.example.identity.common.ClusterLock;
import com.example.identity.apitoken.ApiTokenService;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import tools.jackson.databind.json.JsonMapper;
import com.example.identity.account.Role;
import com.example.identity.support.AuditPages;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.Cluster;
import com.example.identity.support.WebClient;
import com.example.identity.support.MailFiles;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.mfa.TotpCodes;
import com.example.identity.IdentityProperties;
import com.example.identity.passkey.PasskeyConfig;
import com.example.identity.passkey.Passkeys;
import com.example.identity.support.SoftwarePasskey;

/**
 * Two instances on one database behave as one service (decisions §13). On PostgreSQL they share the
 * run's database; on H2 two contexts in this JVM share one in-memory database, which is as far as H2
 * goes (one process only): the cache tests need PostgreSQL's notifications and are skipped on H2.
 */
class TwoInstancesIT {

    static Cluster cluster;

    @BeforeAll
    static void start() {
        cluster = Cluster.onSharedDatabase(2, "--identity.signing-key.rotation-delay=5s",
                "--identity.login.max-failures-per-pair=5", "--identity.rate-limit.failures-per-minute=30");
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String newDeveloper(String password) {
        String email = "node-" + UUID.randomUUID() + "@example.com";
        cluster.bean(0, AccountService.class).create("Nodo", email, password, Role.DEVELOPER_API);
        return email;
    }

    @Test
    void sessionMadeOnOneInstanceIsValidOnTheOtherAndLogoutEndsItOnBoth() {
        String email = newDeveloper("node-password-123");
        var atA = new WebClient(cluster.port(0));
        assertThat(WebClient.location(atA.login(email, "node-password-123"))).isEqualTo("/dashboard/developer.php");
        var atB = atA.at(cluster.port(1));

        var dashboardAtB = atB.get("/dashboard/developer.php");
        assertThat(dashboardAtB.statusCode()).as("the session cookie made at A is known at B").isEqualTo(200);
        assertThat(dashboardAtB.body()).contains(email);

        var logout = atB.postForm("/logout", Map.of("_csrf", WebClient.csrfOf(dashboardAtB.body())));
        assertThat(WebClient.location(logout)).isEqualTo("/login/?logout");
        var afterLogout = atA.get("/dashboard/developer.php");
        assertThat(afterLogout.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(afterLogout)).startsWith("/login/");
    }

    @Test
    void disablingAUserOnOneInstanceEndsTheirSessionOnTheOther() {
        String email = newDeveloper("node-password-456");
        var victimAtB = new WebClient(cluster.port(1));
        victimAtB.login(email, "node-password-456");
        assertThat(victimAtB.get("/dashboard/developer.php").statusCode()).isEqualTo(200);

        var adminAtA = new WebClient(cluster.port(0));
        adminAtA.login("admin@example.com", "admin-demo-password");
        long id = cluster.bean(0, AccountService.class).findByEmail(email).orElseThrow().getId();
        var disabled = adminAtA.postForm("/dashboard/admin/users/disable", Map.of("id", String.valueOf(id),
                "_csrf", adminAtA.csrfFrom("/dashboard/admin.php")));
        assertThat(disabled.statusCode()).isEqualTo(302);

        var after = victimAtB.get("/dashboard/developer.php");
        assertThat(after.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(after)).startsWith("/login/");
    }

    // ---- signing keys ----------------------------------------------------------------------------

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static JWKSet jwks(int node) throws Exception {
        return JWKSet.parse(new WebClient(cluster.port(node)).get("/oauth/jwks.json").body());
    }

    static Set<String> kids(int node) throws Exception {
        return jwks(node).getKeys().stream().map(k -> k.getKeyID()).collect(Collectors.toSet());
    }

    /** A whole authorization code flow with scope openid at {@code node}; returns the id_token. */
    static String idTokenFrom(int node, ClientService.NewCredentials client, WebClient user) {
        return tokensFrom(node, client, user).get("id_token").asString();
    }

    /** A whole authorization code flow with scope openid at {@code node}; returns the token endpoint's answer. */
    static tools.jackson.databind.JsonNode tokensFrom(int node, ClientService.NewCredentials client, WebClient user) {
        var web = user.at(cluster.port(node));
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("scope", "openid");
        query.put("state", "s");
        var redirect = web.get("/oauth/authorize.php?" + WebClient.encode(query));
        assertThat(redirect.statusCode()).as(redirect.body()).isEqualTo(302);
        String code = UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams()
                .getFirst("code");
        var tokens = web.postForm("/oauth/token.php", OAuthForms.codeExchange(client, code));
        assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);
        return JSON.readTree(tokens.body());
    }

    static boolean verifies(String idToken, JWKSet jwks) throws Exception {
        SignedJWT jwt = SignedJWT.parse(idToken);
        RSAKey key = (RSAKey) jwks.getKeyByKeyId(jwt.getHeader().getKeyID());
        return key != null && jwt.verify(new RSASSAVerifier(key));
    }

    static ClientService.NewCredentials newClient() {
        long owner = cluster.bean(0, AccountService.class).findByEmail("dev@example.com").orElseThrow().getId();
        return com.example.identity.support.FirstParty.register(cluster.bean(0, ClientService.class), owner, "Cluster", "https://cluster.example/cb");
    }

    static WebClient loggedInUser(int node) {
        String email = newDeveloper("node-password-789");
        var web = new WebClient(cluster.port(node));
        web.login(email, "node-password-789");
        return web;
    }

    @Test
    void aLogoutOnOneInstanceEndsTheSessionOnTheOther() {
        var client = newClient();
        var user = loggedInUser(0);
        String idToken = idTokenFrom(0, client, user);
        assertThat(user.at(cluster.port(0)).get("/dashboard/developer.php").statusCode()).isEqualTo(200);

        var logout = user.at(cluster.port(1)).get("/oauth/logout.php?" + WebClient.encode(Map.of("id_token_hint", idToken)));

        assertThat(logout.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(logout)).isEqualTo("/login/?logout");
        assertThat(user.at(cluster.port(0)).get("/dashboard/developer.php").statusCode())
                .as("the session made on A, ended through B").isEqualTo(302);
    }

    @Test
    void bothInstancesPublishTheSameKeysAndAnIdTokenFromEitherVerifiesWithTheOthersJwks() throws Exception {
        assertThat(kids(0)).isNotEmpty().isEqualTo(kids(1));
        var client = newClient();
        var user = loggedInUser(0);
        String fromA = idTokenFrom(0, client, user);
        String fromB = idTokenFrom(1, client, user);
        assertThat(verifies(fromA, jwks(1))).as("A's id_token with B's JWKS").isTrue();
        assertThat(verifies(fromB, jwks(0))).as("B's id_token with A's JWKS").isTrue();
    }

    @Test
    void rotationOnOneInstanceIsPublishedOnTheOtherWithinOneSecondSignsAfterTheDelayAndRetiredKeysAreDropped()
            throws Exception {
        var client = newClient();
        var user = loggedInUser(0);
        Set<String> before = kids(1);
        String oldToken = idTokenFrom(1, client, user);

        var admin = new WebClient(cluster.port(0));
        admin.login("admin@example.com", "admin-demo-password");
        var rotated = admin.postForm("/dashboard/admin/keys/rotate", Map.of("_csrf", admin.csrfFrom("/dashboard/admin.php")));
        assertThat(rotated.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(rotated)).isEqualTo("/dashboard/admin.php#keys");
        long rotatedAt = System.nanoTime();

        Set<String> afterAtB;
        do {
            afterAtB = kids(1);
        } while (afterAtB.size() == before.size() && System.nanoTime() - rotatedAt < Duration.ofSeconds(3).toNanos());
        long seenAfter = System.nanoTime() - rotatedAt;
        assertThat(afterAtB).as("the new key is published by the other instance").containsAll(before).hasSize(before.size() + 1);
        assertThat(Duration.ofNanos(seenAfter)).as("published at B within 1 s").isLessThan(Duration.ofSeconds(1));
        assertThat(kids(0)).isEqualTo(afterAtB);
        String newKid = afterAtB.stream().filter(k -> !before.contains(k)).findFirst().orElseThrow();
        assertThat(admin.postForm("/dashboard/admin/keys/rotate", Map.of("_csrf", admin.csrfFrom("/dashboard/admin.php")))
                .statusCode()).isEqualTo(302);
        assertThat(admin.get("/dashboard/admin.php").body())
                .as("a second rotation while the first is pending is refused").contains("Ya hay una rotación en curso");

        String beforeActivation = idTokenFrom(1, client, user);
        assertThat(SignedJWT.parse(beforeActivation).getHeader().getKeyID()).as("still the old key until the delay")
                .isNotEqualTo(newKid);
        // the new key signs at both instances once the 5 s delay is over: looked for from then on
        Duration delayLeft = Duration.ofSeconds(5).minusNanos(System.nanoTime() - rotatedAt);
        await("the new key signs at both instances after the delay").pollDelay(delayLeft.isNegative() ? Duration.ZERO : delayLeft)
                .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> newKid.equals(kidOf(idTokenFrom(0, client, user))) && newKid.equals(kidOf(idTokenFrom(1, client, user))));
        for (int node = 0; node < 2; node++) {
            String afterActivation = idTokenFrom(node, client, user);
            assertThat(SignedJWT.parse(afterActivation).getHeader().getKeyID()).isEqualTo(newKid);
            for (int other = 0; other < 2; other++) {
                assertThat(verifies(afterActivation, jwks(other))).isTrue();
                assertThat(verifies(oldToken, jwks(other))).as("the retired key still verifies its id_tokens").isTrue();
            }
        }
        assertThat(AuditPages.trailUntil(admin, "Clave de firma rotada")).contains("Clave de firma rotada");

        // once the last id_token of a retired key has expired (30 min + 5 min of skew), it is dropped everywhere
        JdbcTemplate jdbc = cluster.bean(0, JdbcTemplate.class);
        jdbc.update("update signing_keys set retired_at = ? where retired_at is not null",
                java.sql.Timestamp.from(java.time.Instant.now().minus(Duration.ofMinutes(36))));
        jdbc.update("update cluster_locks set version = version + 1 where name = 'signing-keys'");
        long agedAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(3)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(() -> kids(0).size() <= 1 && kids(1).size() <= 1
                        && jdbc.queryForObject("select count(*) from signing_keys", Integer.class) <= 1);
        assertThat(Duration.ofNanos(System.nanoTime() - agedAt)).isLessThan(Duration.ofMillis(1500));
        assertThat(kids(0)).containsExactly(newKid);
        assertThat(kids(1)).containsExactly(newKid);
        assertThat(jdbc.queryForObject("select count(*) from signing_keys", Integer.class)).isEqualTo(1);
    }

    // ---- cache coherence (PostgreSQL LISTEN/NOTIFY) --------------------------------------------------

    private static void needsPostgres() {
        Assumptions.assumeTrue(Cluster.onPostgres(), "cache coherence across instances needs PostgreSQL "
                + "(LISTEN/NOTIFY); the embedded H2 database serves one instance only. Run: bash .ci/run");
    }

    /** Polls {@code check} until it holds; returns how long that took, failing after 5 s. */
    private static Duration within(java.util.function.BooleanSupplier check) {
        long start = System.nanoTime();
        await("seen within 5 s").atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(check::getAsBoolean);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static int userinfo(int node, String token) {
        return new WebClient(cluster.port(node)).get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode();
    }

    /**
     * Refreshes of one refresh token racing on both instances (decisions §12.4): exactly one wins, whichever
     * instance serves it, and the losers' reuse revokes the family, the winner's new access token included,
     * on both instances within a second. The consent page of offline_access is approved on the other
     * instance than the one the authorization request came to.
     */
    @Test
    void refreshesOfOneTokenRacingOnBothInstancesGiveExactlyOneSuccess() throws Exception {
        needsPostgres();
        var client = newClient();
        var user = loggedInUser(0);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("scope", "openid offline_access");
        query.put("state", "r");
        String toConsent = WebClient.location(user.get("/oauth/authorize.php?" + WebClient.encode(query)));
        assertThat(toConsent).contains("/oauth/consent?request=");
        var atB = user.at(cluster.port(1));
        var page = atB.get(toConsent.substring(toConsent.indexOf("/oauth/consent")));
        var request = java.util.regex.Pattern.compile("name=\"request\" value=\"([^\"]+)\"").matcher(page.body());
        assertThat(request.find()).isTrue();
        var approved = atB.postForm("/oauth/consent", Map.of("request", request.group(1).replace("&amp;", "&"),
                "decision", "allow", "_csrf", WebClient.csrfOf(page.body())));
        var back = user.get(WebClient.location(approved));
        String code = UriComponentsBuilder.fromUriString(WebClient.location(back)).build().getQueryParams().getFirst("code");
        var tokens = JSON.readTree(atB.postForm("/oauth/token.php", OAuthForms.codeExchange(client, code)).body());
        String refreshToken = tokens.get("refresh_token").asString();

        int parallel = 16;
        var pool = java.util.concurrent.Executors.newFixedThreadPool(parallel);
        var start = new java.util.concurrent.CountDownLatch(1);
        var results = new java.util.ArrayList<java.util.concurrent.Future<java.net.http.HttpResponse<String>>>();
        try {
            for (int i = 0; i < parallel; i++) {
                int node = i % 2;
                results.add(pool.submit(() -> {
                    start.await(10, java.util.concurrent.TimeUnit.SECONDS);
                    return new WebClient(cluster.port(node)).postForm("/oauth/token.php", Map.of("grant_type",
                            "refresh_token", "refresh_token", refreshToken, "client_id", client.clientId(),
                            "client_secret", client.clientSecret()));
                }));
            }
            start.countDown();
            String winner = null;
            int refused = 0;
            for (var result : results) {
                var response = result.get(60, java.util.concurrent.TimeUnit.SECONDS);
                if (response.statusCode() == 200) {
                    assertThat(winner).as("a second success").isNull();
                    winner = JSON.readTree(response.body()).get("access_token").asString();
                }
                else {
                    assertThat(response.statusCode()).isEqualTo(400);
                    assertThat(JSON.readTree(response.body()).get("error").asString()).isEqualTo("invalid_grant");
                    refused++;
                }
            }
            assertThat(winner).as("exactly one success").isNotNull();
            assertThat(refused).isEqualTo(parallel - 1);
            String won = winner;
            for (int node = 0; node < 2; node++) {
                int n = node;
                assertThat(within(() -> userinfo(n, won) == 401)).isLessThan(Duration.ofSeconds(1));
            }
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tokenRevokedOnOneInstanceIsRefusedOnTheOtherWithinOneSecond() throws Exception {
        needsPostgres();
        String email = newDeveloper("node-password-321");
        long userId = cluster.bean(0, AccountService.class).findByEmail(email).orElseThrow().getId();
        var issued = cluster.bean(0, ApiTokenService.class).createPersonal(userId, "cluster");
        assertThat(userinfo(1, issued.value())).as("cached at B").isEqualTo(200);
        assertThat(userinfo(1, issued.value())).isEqualTo(200);

        var owner = new WebClient(cluster.port(0));
        owner.login(email, "node-password-321");
        var revoked = owner.postForm("/api/tokens/revoke.php", Map.of("id", String.valueOf(issued.token().getId())),
                "X-CSRF-TOKEN", owner.csrfFrom("/dashboard/developer.php"));
        assertThat(revoked.body()).isEqualTo("{\"ok\":true}");
        assertThat(within(() -> userinfo(1, issued.value()) == 401)).isLessThan(Duration.ofSeconds(1));
    }

    // ---- tickets for game servers (decisions §25) -----------------------------------------------------

    static ClientService.NewCredentials newGameServer() {
        long owner = cluster.bean(0, AccountService.class).findByEmail("dev@example.com").orElseThrow().getId();
        return cluster.bean(0, ClientService.class).register(owner, "Servidor", null, List.of(),
                com.example.identity.client.ClientType.SERVER);
    }

    /** {@code game} asks {@code node} for a ticket for {@code server} with the player's {@code subjectToken}. */
    static java.net.http.HttpResponse<String> ticketAt(int node, ClientService.NewCredentials game, String subjectToken,
            String server) {
        return new WebClient(cluster.port(node)).postForm("/oauth/token.php", Map.of(
                "grant_type", "urn:ietf:params:oauth:grant-type:token-exchange", "subject_token", subjectToken,
                "subject_token_type", "urn:ietf:params:oauth:token-type:access_token", "audience", server,
                "client_id", game.clientId(), "client_secret", game.clientSecret()));
    }

    @Test
    void aTicketFromEitherInstanceIsAcceptedByAGameServerReadingTheOthersJwks() throws Exception {
        var game = newClient();
        var server = newGameServer();
        String playersToken = tokensFrom(0, game, loggedInUser(0)).get("access_token").asString();
        String issuer = cluster.bean(0, IdentityProperties.class).issuerUrl();

        for (int node = 0; node < 2; node++) {
            var answer = ticketAt(node, game, playersToken, server.clientId());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            String ticket = JSON.readTree(answer.body()).get("access_token").asString();
            int other = 1 - node;
            var gameServer = new com.example.identity.support.GameServer(issuer,
                    java.net.URI.create("http://localhost:" + cluster.port(other) + "/oauth/jwks.json"), server.clientId(),
                    java.time.Instant::now);
            assertThat(gameServer.accept(ticket).getStringClaim("azp")).as("node %d's ticket, node %d's keys", node, other)
                    .isEqualTo(game.clientId());
        }
    }

    @Test
    void aTokenRevokedOnOneInstanceGetsNoTicketOnTheOtherWithinOneSecond() throws Exception {
        needsPostgres();
        var game = newClient();
        var server = newGameServer();
        String playersToken = tokensFrom(0, game, loggedInUser(0)).get("access_token").asString();
        assertThat(ticketAt(1, game, playersToken, server.clientId()).statusCode()).as("cached at B").isEqualTo(200);

        var revoked = new WebClient(cluster.port(0)).postForm("/oauth/revoke.php", Map.of("token", playersToken,
                "client_id", game.clientId(), "client_secret", game.clientSecret()));
        assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);

        assertThat(within(() -> ticketAt(1, game, playersToken, server.clientId()).statusCode() == 400))
                .isLessThan(Duration.ofSeconds(1));
        assertThat(ticketAt(1, game, playersToken, server.clientId()).body()).isEqualTo("{\"error\":\"invalid_grant\","
                + "\"error_description\":\"subject_token invalido, caducado, revocado o de otra aplicacion\"}");
    }

    @Test
    void disablingAUserOnOneInstanceRefusesTheirTokensOnTheOtherWithinOneSecond() throws Exception {
        needsPostgres();
        String email = newDeveloper("node-password-654");
        long userId = cluster.bean(0, AccountService.class).findByEmail(email).orElseThrow().getId();
        String token = cluster.bean(0, ApiTokenService.class).createPersonal(userId, "cluster").value();
        assertThat(userinfo(1, token)).isEqualTo(200);

        var admin = new WebClient(cluster.port(0));
        admin.login("admin@example.com", "admin-demo-password");
        admin.postForm("/dashboard/admin/users/disable", Map.of("id", String.valueOf(userId),
                "_csrf", admin.csrfFrom("/dashboard/admin.php")));
        assertThat(within(() -> userinfo(1, token) == 401)).isLessThan(Duration.ofSeconds(1));
    }

    // ---- sanctions (decisions §26) --------------------------------------------------------------------

    /** A personal gestion token of {@code email}'s account, for the API at any instance. */
    private static String gestionOf(String email) {
        long id = cluster.bean(0, AccountService.class).findByEmail(email).orElseThrow().getId();
        return "Bearer " + cluster.bean(0, ApiTokenService.class).createPersonal(id, "cluster",
                com.example.identity.apitoken.TokenScope.GESTION).value();
    }

    /**
     * An admin suspends a person at A: at B, where the person is logged in and was just checked (B's cache holds "no
     * sanction"), the session ends, their token is refused, and the password login shows the suspension, within a
     * second (the sanctions' cache hears A's commit through PostgreSQL NOTIFY).
     */
    @Test
    void aGlobalSanctionPlacedOnOneInstanceRefusesThePersonOnTheOtherWithinOneSecond() throws Exception {
        needsPostgres();
        String email = newDeveloper("node-password-741");
        long userId = cluster.bean(0, AccountService.class).findByEmail(email).orElseThrow().getId();
        String token = cluster.bean(0, ApiTokenService.class).createPersonal(userId, "cluster").value();
        var atB = new WebClient(cluster.port(1));
        assertThat(atB.login(email, "node-password-741").statusCode()).isEqualTo(302);
        assertThat(atB.get("/dashboard/developer.php").statusCode()).isEqualTo(200);
        assertThat(userinfo(1, token)).isEqualTo(200);

        var placed = new WebClient(cluster.port(0)).postForm("/api/sanciones/crear.php", Map.of("usuario_id",
                Long.toString(userId), "motivo", "Suspendida en el clúster", "hasta", "2099-01-01T00:00:00Z"),
                "Authorization", gestionOf("admin@example.com"));
        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(200);

        assertThat(within(() -> "/login/?suspendida=1".equals(WebClient.location(new WebClient(cluster.port(1))
                .login(email, "node-password-741"))))).isLessThan(Duration.ofSeconds(1));
        assertThat(atB.get("/dashboard/developer.php").statusCode()).as("the session ended").isEqualTo(302);
        assertThat(userinfo(1, token)).isEqualTo(401);
    }

    /**
     * An application's owner sanctions a player in it at A: B, which had just let the player through that application's
     * authorization request (its cache holds "no sanction"), sends it back with access_denied within a second.
     */
    @Test
    void aSanctionInOneApplicationPlacedOnOneInstanceRefusesItsAuthorizationRequestsOnTheOtherWithinOneSecond()
            throws Exception {
        needsPostgres();
        var client = newClient();
        String email = newDeveloper("node-password-852");
        long userId = cluster.bean(0, AccountService.class).findByEmail(email).orElseThrow().getId();
        var user = new WebClient(cluster.port(1));
        assertThat(user.login(email, "node-password-852").statusCode()).isEqualTo(302);
        idTokenFrom(1, client, user);
        String authorize = "/oauth/authorize.php?" + WebClient.encode(Map.of("response_type", "code", "client_id",
                client.clientId(), "redirect_uri", client.redirectUri(), "scope", "openid", "state", "s"));

        var placed = new WebClient(cluster.port(0)).postForm("/api/sanciones/crear.php", Map.of("usuario_id",
                Long.toString(userId), "motivo", "Trampas", "client_id", client.clientId()),
                "Authorization", gestionOf("dev@example.com"));
        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(200);

        assertThat(within(() -> WebClient.location(user.at(cluster.port(1)).get(authorize))
                .startsWith(client.redirectUri() + "?error=access_denied"))).isLessThan(Duration.ofSeconds(1));
    }

    // ---- login throttle and abuse budgets across instances -------------------------------------------

    /** A login POST at {@code node} from {@code address} (X-Forwarded-For, trusted from 127.0.0.1 in tests). */
    private static String loginAt(int node, String address, String email, String password) {
        var web = new WebClient(cluster.port(node));
        return WebClient.location(web.postForm("/login/", Map.of("username", email, "password", password,
                "_csrf", web.csrfFrom("/login/")), "X-Forwarded-For", address));
    }

    @Test
    void fiveFailedLoginsSpreadOverBothInstancesLockThePairOnBoth() throws Exception {
        needsPostgres();
        String email = newDeveloper("node-password-777");
        String address = "203.0.113.77";
        // identity.login.max-failures-per-pair=5 (the shipped figure; start()): three failures at A, two at B
        for (int i = 0; i < 5; i++) {
            assertThat(loginAt(i % 2, address, email, "wrong-" + i)).as("failure %d at node %d", i + 1, i % 2)
                    .isEqualTo("/login/?error=1");
        }
        for (int node = 0; node < 2; node++) {
            int n = node;
            assertThat(within(() -> cluster.bean(n, LoginThrottle.class).isBlocked(email, address)))
                    .as("locked at node %d", node).isLessThan(Duration.ofSeconds(1));
            assertThat(loginAt(node, address, email, "node-password-777")).as("right password at node %d", node)
                    .isEqualTo("/login/?bloqueado=1");
        }
        assertThat(loginAt(1, "198.51.100.77", email, "node-password-777")).as("the owner from elsewhere")
                .isEqualTo("/dashboard/developer.php");
    }

    @Test
    void theTokenEndpointsAddressBudgetIsSpentOnBothInstances() throws Exception {
        needsPostgres();
        // identity.rate-limit.failures-per-minute=30 (start()): failures before any client authenticated
        String address = "198.51.100.199";
        for (int i = 0; i < 30; i++) {
            var refused = new WebClient(cluster.port(i % 2)).postForm("/oauth/token.php",
                    Map.of("grant_type", "authorization_code", "code", "x", "client_id", "nadie-" + i,
                            "client_secret", "x"), "X-Forwarded-For", address);
            assertThat(refused.statusCode()).isIn(400, 401);
        }
        for (int node = 0; node < 2; node++) {
            int n = node;
            assertThat(within(() -> cluster.bean(n, RateLimits.class).blockedFor(RateLimits.Budget.TOKEN_FAILURES,
                    address) > 0)).isLessThan(Duration.ofSeconds(1));
            var blocked = new WebClient(cluster.port(node)).postForm("/oauth/token.php",
                    Map.of("grant_type", "authorization_code", "code", "x"), "X-Forwarded-For", address);
            assertThat(blocked.statusCode()).as("node %d", node).isEqualTo(429);
            assertThat(blocked.headers().firstValue("Retry-After")).isPresent();
        }
    }

    @Test
    void applicationRevokedOnOneInstanceIsRefusedOnTheOtherWithinOneSecond() throws Exception {
        needsPostgres();
        var client = newClient();
        var user = loggedInUser(1);
        idTokenFrom(1, client, user); // B now caches the client
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("state", "s");
        String authorize = "/oauth/authorize.php?" + WebClient.encode(query);

        var developer = new WebClient(cluster.port(0));
        developer.login("dev@example.com", "dev-demo-password");
        var revoked = developer.postForm("/api/clients/revoke.php", Map.of("client_id", client.clientId()),
                "X-CSRF-TOKEN", developer.csrfFrom("/dashboard/developer.php"));
        assertThat(revoked.body()).isEqualTo("{\"ok\":true}");
        assertThat(within(() -> user.at(cluster.port(1)).get(authorize).statusCode() == 400))
                .isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void afterLosingItsListeningConnectionAnInstanceReconnectsAndFlushesItsCaches() throws Exception {
        needsPostgres();
        String email = newDeveloper("node-password-987");
        long userId = cluster.bean(0, AccountService.class).findByEmail(email).orElseThrow().getId();
        var issued = cluster.bean(0, ApiTokenService.class).createPersonal(userId, "cluster");
        assertThat(userinfo(1, issued.value())).isEqualTo(200);

        JdbcTemplate jdbc = cluster.bean(0, JdbcTemplate.class);
        var invalidation = cluster.bean(1, CacheInvalidation.class);
        assertThat(invalidation.listening()).isTrue();
        // the listeners' connections drop, and a revocation is made that no instance hears of
        jdbc.queryForList("select pg_terminate_backend(pid) from pg_stat_activity "
                + "where application_name = 'identity-cache-listener' and datname = current_database()");
        jdbc.update("update api_tokens set revoked_at = current_timestamp where id = ?", issued.token().getId());
        within(() -> !invalidation.listening());
        assertThat(within(() -> invalidation.listening() && userinfo(1, issued.value()) == 401))
                .as("reconnected and flushed").isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void scheduledWorkRunsOnOneInstanceAtATime() {
        needsPostgres();
        var a = cluster.bean(0, ClusterLock.class);
        var b = cluster.bean(1, ClusterLock.class);
        boolean[] bRanWhileAHeldIt = {true};
        boolean aRan = a.runIfFree("test-job", () -> bRanWhileAHeldIt[0] = b.runIfFree("test-job", () -> { }));
        assertThat(aRan).isTrue();
        assertThat(bRanWhileAHeldIt[0]).as("B skips the job while A runs it").isFalse();
        assertThat(b.runIfFree("test-job", () -> { })).as("free again once A's run committed").isTrue();
    }

    @Test
    void rotatingWhileLoginsRunEveryIdTokenVerifiesWithAnyJwksFetchedAfterIt() throws Exception {
        var client = newClient();
        var user = loggedInUser(0);
        record Issued(long at, String idToken) {
        }
        record Fetched(long at, JWKSet jwks) {
        }
        List<Issued> issued = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        List<Fetched> fetched = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        long runUntil = System.nanoTime() + Duration.ofSeconds(9).toNanos(); // the 5 s delay and some
        var logins = new Thread(() -> {
            for (int i = 0; System.nanoTime() < runUntil && i < 5000; i++) {
                String idToken = idTokenFrom(i % 2, client, user);
                issued.add(new Issued(System.nanoTime(), idToken));
            }
        });
        var jwksReader = new Thread(() -> {
            for (int i = 0; System.nanoTime() < runUntil + Duration.ofMillis(500).toNanos() && i < 500; i++) {
                try {
                    long before = System.nanoTime();
                    fetched.add(new Fetched(before, jwks(i % 2)));
                    Thread.sleep(100);
                }
                catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        logins.start();
        jwksReader.start();
        // the old key signs for a while and is fetched before the rotation
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> issued.size() >= 10 && fetched.size() >= 10);
        var added = cluster.bean(1, com.example.identity.keys.SigningKeys.class).rotate(); // the command's path
        logins.join();
        jwksReader.join();

        assertThat(issued.stream().map(i -> kidOf(i.idToken())).distinct().count())
                .as("id_tokens signed by the old key, then by the new one").isEqualTo(2);
        assertThat(issued.stream().anyMatch(i -> kidOf(i.idToken()).equals(added.kid()))).isTrue();
        int checks = 0;
        for (Issued token : issued) {
            for (Fetched jwks : fetched) {
                if (jwks.at() > token.at()) {
                    assertThat(verifies(token.idToken(), jwks.jwks()))
                            .as("an id_token verifies with every JWKS fetched after it was issued").isTrue();
                    checks++;
                }
            }
        }
        assertThat(checks).isGreaterThan(100);
    }

    private static String kidOf(String idToken) {
        try {
            return SignedJWT.parse(idToken).getHeader().getKeyID();
        }
        catch (java.text.ParseException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void whatOnePageLeavesInTheSessionForTheNextIsReadByTheOtherInstance() {
        String email = newDeveloper("node-password-246");
        var atA = new WebClient(cluster.port(0));
        atA.login(email, "node-password-246");
        // a refused token (the application form answers its refusals in the page itself since issue 42)
        var refused = atA.postForm("/dashboard/tokens/create", Map.of("name", "",
                "_csrf", atA.csrfFrom("/dashboard/developer.php")));
        assertThat(refused.statusCode()).isEqualTo(302);
        String page = atA.at(cluster.port(1)).get(WebClient.location(refused)).body();
        assertThat(page).as("the refused form's error (a flash attribute) at the other instance")
                .contains("id=\"token-name-error\">Escribe un nombre para el token.</p>");
    }

    // ---- accounts: recovery, second factor, device flow ------------------------------------------

    @Test
    void aRecoveryLinkMailedByOneInstanceWorksOnTheOther() throws Exception {
        String email = newDeveloper("node-password-old");
        var atA = new WebClient(cluster.port(0));
        var asked = atA.postForm("/login/recuperar", Map.of("correo", email, "_csrf", atA.csrfFrom("/login/recuperar")),
                "X-Forwarded-For", "192.0.2." + (1 + (int) (Math.random() * 250)));
        assertThat(asked.statusCode()).isEqualTo(200);
        String token = MailFiles.link(MailFiles.newest(email, "Restablece tu contraseña"),
                java.util.regex.Pattern.compile("/login/restablecer\\?token=([A-Za-z0-9_-]{43})"));
        var atB = new WebClient(cluster.port(1));
        var form = atB.get("/login/restablecer?token=" + token);
        assertThat(form.statusCode()).isEqualTo(200);
        var done = atB.postForm("/login/restablecer", Map.of("token", token, "nueva", "node-password-new",
                "repetida", "node-password-new", "_csrf", WebClient.csrfOf(form.body())));
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(WebClient.location(new WebClient(cluster.port(0)).login(email, "node-password-new")))
                .isEqualTo("/dashboard/developer.php");
        assertThat(new WebClient(cluster.port(0)).get("/login/restablecer?token=" + token).statusCode()).isEqualTo(400);
    }

    @Test
    void theSecondStepBegunOnOneInstanceEndsOnTheOtherAndACodeIsAcceptedOnce() {
        String email = newDeveloper("node-password-mfa");
        long id = cluster.bean(0, AccountService.class).findByEmail(email).orElseThrow().getId();
        var factors = cluster.bean(0, SecondFactors.class);
        String secret = factors.newSecret();
        assertThat(factors.enable(id, secret, TotpCodes.now(secret, 0))).hasSize(10);

        var atA = new WebClient(cluster.port(0));
        assertThat(WebClient.location(atA.login(email, "node-password-mfa"))).isEqualTo("/login/segundo-paso");
        var atB = atA.at(cluster.port(1));
        String code = TotpCodes.now(secret, 1);
        var ok = atB.postForm("/login/segundo-paso", Map.of("codigo", code, "_csrf", atB.csrfFrom("/login/segundo-paso")));
        assertThat(WebClient.location(ok)).isEqualTo("/dashboard/developer.php");
        assertThat(atA.get("/dashboard/developer.php").statusCode()).isEqualTo(200);
        // the same code in another login, at the other instance: refused
        var replay = new WebClient(cluster.port(0));
        replay.login(email, "node-password-mfa");
        assertThat(replay.postForm("/login/segundo-paso", Map.of("codigo", code,
                "_csrf", replay.csrfFrom("/login/segundo-paso"))).statusCode()).isEqualTo(400);
    }

    private static java.net.http.HttpResponse<String> postJson(WebClient web, String path, String json, String csrf) {
        return web.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(web.base() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("X-CSRF-TOKEN", csrf)
                .POST(json == null ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    /**
     * A passkey's two ceremonies, each split between the instances as a load balancer may (decisions §13, §17):
     * the registration's challenge handed out by A is checked by B, the login's handed out by B is checked by A
     * (both kept in the session, a row of the shared database, as the credential is), and the session logged in
     * carries an authorization request on either. The browser and the device are webauthn4j's emulators
     * ({@link SoftwarePasskey}), posting what the page's script posts; their origin is the issuer's, the one
     * public address in front of both instances, which is the relying party's allowed origin on each (a page at
     * an instance's own address is refused).
     */
    @Test
    void aPasskeyRegisteredThroughBothInstancesLogsInThroughBoth() throws Exception {
        String origin = PasskeyConfig.origin(cluster.bean(0, IdentityProperties.class));
        assertThat(PasskeyConfig.origin(cluster.bean(1, IdentityProperties.class))).isEqualTo(origin);
        var device = new SoftwarePasskey(origin);
        String email = "llave-" + UUID.randomUUID() + "@example.com";
        cluster.bean(0, AccountService.class).create("Llave", email, "node-password-key", Role.USER);

        // registration: a fresh password login at A (a recent login), the options from A, the new passkey to B
        var atA = new WebClient(cluster.port(0));
        assertThat(atA.login(email, "node-password-key").statusCode()).isEqualTo(302);
        String csrf = atA.csrfFrom("/cuenta/seguridad");
        var creation = postJson(atA, "/webauthn/register/options", null, csrf);
        assertThat(creation.statusCode()).as(creation.body()).isEqualTo(200);
        var atB = atA.at(cluster.port(1));
        var registered = postJson(atB, "/webauthn/register", device.register(creation.body(), "Llave del clúster"), csrf);
        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
        assertThat(registered.body()).contains("\"success\":true");
        assertThat(cluster.bean(0, Passkeys.class).of(email)).extracting(Passkeys.Passkey::label)
                .containsExactly("Llave del clúster");
        assertThat(atA.get("/cuenta/seguridad").body()).contains("Llave del clúster");

        // the origin is checked: the same passkey used from a page at an instance's own address is refused
        var elsewhere = new WebClient(cluster.port(1));
        String elsewhereCsrf = elsewhere.csrfFrom("/login/");
        String otherOrigin = elsewhere.base();
        assertThat(otherOrigin).isNotEqualTo(origin);
        var refused = postJson(elsewhere, "/login/webauthn", device.from(otherOrigin).authenticate(
                postJson(elsewhere, "/webauthn/authenticate/options", null, elsewhereCsrf).body()), elsewhereCsrf);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.body()).isEqualTo("{\"authenticated\":false}");

        // login in another browser: the login page and the options from B, the signed answer to A
        var visitorAtB = new WebClient(cluster.port(1));
        String loginCsrf = visitorAtB.csrfFrom("/login/");
        var request = postJson(visitorAtB, "/webauthn/authenticate/options", null, loginCsrf);
        assertThat(request.statusCode()).as(request.body()).isEqualTo(200);
        var visitorAtA = visitorAtB.at(cluster.port(0));
        var loggedIn = postJson(visitorAtA, "/login/webauthn", device.authenticate(request.body()), loginCsrf);
        assertThat(loggedIn.statusCode()).as(loggedIn.body()).isEqualTo(200);
        assertThat(loggedIn.body()).isEqualTo("{\"authenticated\":true,\"redirectUrl\":\"/\"}");
        for (var web : List.of(visitorAtA, visitorAtB)) {
            var account = web.get("/cuenta/");
            assertThat(account.statusCode()).isEqualTo(200);
            assertThat(account.body()).contains(email);
        }

        // an application's authorization request carried by that session at B: the passkey's factors in the id_token
        String idToken = idTokenFrom(1, newClient(), visitorAtA);
        assertThat(SignedJWT.parse(idToken).getJWTClaimsSet().getStringListClaim("amr")).containsExactly("hwk", "mfa");
    }

    @Test
    void aConsoleStartsOnOneInstanceIsApprovedOnTheOtherAndPollsOnEither() {
        long owner = cluster.bean(0, AccountService.class).findByEmail("dev@example.com").orElseThrow().getId();
        var console = cluster.bean(0, ClientService.class).register(owner, "Consola", null, List.of(),
                com.example.identity.client.ClientType.DEVICE);
        var started = JSON.readTree(new WebClient(cluster.port(0)).postForm("/oauth/device.php",
                Map.of("client_id", console.clientId(), "scope", "openid")).body());
        String deviceCode = started.get("device_code").asString();
        Map<String, String> poll = Map.of("grant_type", "urn:ietf:params:oauth:grant-type:device_code",
                "device_code", deviceCode, "client_id", console.clientId());
        assertThat(new WebClient(cluster.port(0)).postForm("/oauth/token.php", poll).body()).contains("authorization_pending");
        // the console's next poll goes to the other instance at once: too fast there too
        assertThat(new WebClient(cluster.port(1)).postForm("/oauth/token.php", poll).body()).contains("slow_down");

        String player = newDeveloper("node-password-player");
        var atB = new WebClient(cluster.port(1));
        atB.login(player, "node-password-player");
        var approved = atB.postForm("/activar", Map.of("user_code", started.get("user_code").asString(),
                "decision", "allow", "_csrf", atB.csrfFrom("/activar")));
        assertThat(approved.body()).contains("id=\"activate-done\"");
        var tokens = new WebClient(cluster.port(0)).postForm("/oauth/token.php", poll);
        assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);
        assertThat(new WebClient(cluster.port(1)).postForm("/oauth/token.php", poll).body()).contains("invalid_grant");
    }

    // ---- decisions §28: pushed requests and DPoP proofs, one store for both instances -------------

    /** The issuer of both instances: the one public address in front of them, which the proofs name. */
    static final String ISSUER = "http://localhost:8080";

    /**
     * A request pushed to one instance (RFC 9126) is taken at the authorization endpoint of the other, once: its row
     * is in the database, and the second use, at either instance, is refused.
     */
    @Test
    void aRequestPushedToOneInstanceIsTakenAtTheOtherOnce() {
        var client = newClient();
        var user = loggedInUser(1);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("response_type", "code");
        form.put("client_id", client.clientId());
        form.put("redirect_uri", client.redirectUri());
        form.put("scope", "openid");
        form.put("state", "pushed-at-a");
        var pushed = new WebClient(cluster.port(0)).postForm("/oauth/par.php", form, "Authorization", "Basic "
                + java.util.Base64.getEncoder().encodeToString((client.clientId() + ":" + client.clientSecret()).getBytes()));
        assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(201);
        String requestUri = JSON.readTree(pushed.body()).get("request_uri").asString();
        Map<String, String> query = new LinkedHashMap<>();
        query.put("client_id", client.clientId());
        query.put("request_uri", requestUri);
        String authorize = "/oauth/authorize.php?" + WebClient.encode(query);

        var atB = user.get(authorize);
        assertThat(atB.statusCode()).isEqualTo(302);
        var params = UriComponentsBuilder.fromUriString(WebClient.location(atB)).build().getQueryParams();
        assertThat(params.getFirst("state")).isEqualTo("pushed-at-a");
        var tokens = new WebClient(cluster.port(0)).postForm("/oauth/token.php",
                OAuthForms.codeExchange(client, params.getFirst("code")));
        assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);

        for (int node = 0; node < 2; node++) {
            assertThat(user.at(cluster.port(node)).get(authorize).statusCode()).as("taken once, at node " + node)
                    .isEqualTo(400);
        }
    }

    /**
     * A DPoP proof accepted by one instance is refused by the other (RFC 9449 §11.1): the seen {@code jti}s are one
     * table of the shared database, not each instance's memory. A new proof is accepted anywhere.
     */
    @Test
    void aDPoPProofAcceptedOnOneInstanceIsRefusedOnTheOther() {
        var client = newClient();
        var user = loggedInUser(0);
        var key = com.example.identity.support.DPoPKey.generate();
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("scope", "openid");
        query.put("state", "d");
        String code = UriComponentsBuilder.fromUriString(WebClient.location(user.get("/oauth/authorize.php?"
                + WebClient.encode(query)))).build().getQueryParams().getFirst("code");
        String tokenProof = key.proof("POST", ISSUER + "/oauth/token.php");
        var exchanged = new WebClient(cluster.port(0)).postForm("/oauth/token.php", OAuthForms.codeExchange(client, code),
                "DPoP", tokenProof);
        assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(200);
        String token = JSON.readTree(exchanged.body()).get("access_token").asString();
        String url = ISSUER + "/api/userinfo.php";

        String proof = key.proof("GET", url, token);
        assertThat(new WebClient(cluster.port(0)).get("/api/userinfo.php", "Authorization", "DPoP " + token, "DPoP", proof)
                .statusCode()).isEqualTo(200);
        var replayed = new WebClient(cluster.port(1)).get("/api/userinfo.php", "Authorization", "DPoP " + token,
                "DPoP", proof);
        assertThat(replayed.statusCode()).isEqualTo(401);
        assertThat(replayed.body()).isEqualTo("{\"ok\":false,\"error\":\"Token inválido o revocado\"}");
        assertThat(replayed.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("DPoP error=\"invalid_dpop_proof\"");
        assertThat(new WebClient(cluster.port(1)).get("/api/userinfo.php", "Authorization", "DPoP " + token, "DPoP",
                key.proof("GET", url, token)).statusCode()).as("a new proof").isEqualTo(200);
        // the token request's proof too: replayed at the other instance's token endpoint
        var again = new WebClient(cluster.port(1)).postForm("/oauth/token.php", Map.of("grant_type", "refresh_token",
                "refresh_token", "x".repeat(43), "client_id", client.clientId(), "client_secret", client.clientSecret()),
                "DPoP", tokenProof);
        assertThat(JSON.readTree(again.body()).get("error").asString()).isEqualTo("invalid_dpop_proof");
    }

    // ---- guest players (decisions §24) -----------------------------------------------------------

    private static com.example.identity.client.ClientService.NewCredentials guestGame() {
        long owner = cluster.bean(0, AccountService.class).findByEmail("dev@example.com").orElseThrow().getId();
        return cluster.bean(0, ClientService.class).register(owner, "Juego", "http://127.0.0.1/juego", List.of(),
                com.example.identity.client.ClientType.NATIVE, null, com.example.identity.client.SenderConstraints.NONE,
                true);
    }

    private static java.net.http.HttpResponse<String> newGuest(int node, String clientId, String address) {
        return new WebClient(cluster.port(node)).postForm("/oauth/invitado.php", Map.of("client_id", clientId),
                "X-Forwarded-For", address);
    }

    @Test
    void aGuestMadeOnOneInstancePlaysAndRefreshesOnTheOther() {
        var game = guestGame();
        var made = newGuest(0, game.clientId(), "198.51.100.142");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        var tokens = JSON.readTree(made.body());
        var refreshed = new WebClient(cluster.port(1)).postForm("/oauth/token.php", Map.of("grant_type", "refresh_token",
                "refresh_token", tokens.get("refresh_token").asString(), "client_id", game.clientId()));
        assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
        String access = JSON.readTree(refreshed.body()).get("access_token").asString();
        assertThat(new WebClient(cluster.port(0)).get("/api/userinfo.php", "Authorization", "Bearer " + access).body())
                .contains("\"correo\":null,\"rol\":\"invitado\"");
    }

    @Test
    void oneAddressMakesTenGuestsAnHourOnBothInstancesTogether() {
        needsPostgres();
        var game = guestGame();
        String address = "198.51.100.143";
        // identity.guests.per-address-hour: 10 (the default), taken alternately at A and B
        for (int i = 0; i < 10; i++) {
            assertThat(newGuest(i % 2, game.clientId(), address).statusCode()).as("guest %d", i + 1).isEqualTo(200);
        }
        for (int node = 0; node < 2; node++) {
            int n = node;
            // the abuse/ budget of oauth/guest/GuestEndpointFilter, by its name
            assertThat(within(() -> cluster.bean(n, RateLimits.class).sharedBudget("guests", 10, Duration.ofHours(1))
                    .blockedFor(address) > 0)).isLessThan(Duration.ofSeconds(1));
            var refused = newGuest(node, game.clientId(), address);
            assertThat(refused.statusCode()).as("node %d", node).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.body()).isEqualTo("{\"error\":\"temporarily_unavailable\","
                    + "\"error_description\":\"Demasiadas solicitudes, intentalo mas tarde\"}");
        }
        assertThat(cluster.bean(0, JdbcTemplate.class).queryForObject("select count(*) from guests where client_id = ?",
                Long.class, game.clientId())).isEqualTo(10);
        assertThat(newGuest(1, game.clientId(), "198.51.100.144").statusCode()).as("another address").isEqualTo(200);
    }
}
