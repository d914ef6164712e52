package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.crypto.Secrets;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.WebClient;
import com.example.identity.apitoken.ApiTokenService;

/**
 * The rate limits with the shipped defaults (200 failures before client authentication per address a
 * minute, 600 unknown bearer tokens per address a minute, 5000 requests a second per authenticated
 * client or token; {@code RateLimitsTest} checks that these are the shipped figures) and no trusted
 * proxy: abuse is slowed at once, busy legitimate callers are not. Its own context, because it spends
 * budgets on purpose. Spending runs come from the IPv6 loopback {@code [::1]} (a key of its own), the
 * rest from {@code 127.0.0.1}. The login throttle has tests of its own ({@code abuse/LoginThrottleIT}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "identity.rate-limit.failures-per-minute=" + AbuseLimitsIT.TOKEN_FAILURES,
        "identity.rate-limit.unknown-tokens-per-minute=" + AbuseLimitsIT.UNKNOWN_TOKENS, "identity.trusted-proxies=" })
@ActiveProfiles("test")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AbuseLimitsIT {

    /** The shipped budgets (the test profile raises them for every other test). */
    static final int TOKEN_FAILURES = 200;
    static final int UNKNOWN_TOKENS = 600;
    static final String TOO_MANY = "Demasiadas solicitudes, inténtalo más tarde";

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    ApiTokenService tokens;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    WebClient v4() {
        return new WebClient("http://127.0.0.1:" + port);
    }

    WebClient v6() {
        return new WebClient("http://[::1]:" + port);
    }

    @Test
    @Order(1)
    void manyGoodRequestsAreNeverThrottled() {
        var owner = accounts.create("Busy", "busy-" + UUID.randomUUID() + "@example.com", "busy-password-12", Role.DEVELOPER_API);
        String token = tokens.createPersonal(owner.getId(), "busy").value();
        var web = new WebClient(port);
        for (int i = 0; i < 300; i++) {
            assertThat(web.get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
        }
    }

    /**
     * The game back end: it validates its players' tokens from one address, and expired, revoked and
     * disabled players' tokens are routine there. They exist, so they cost no budget.
     */
    @Test
    @Order(2)
    void aGameBackEndsExpiredAndRevokedTokensNeverLockItOut() {
        var player = accounts.create("Player", "player-" + UUID.randomUUID() + "@example.com", "player-password-1",
                Role.DEVELOPER_API);
        var banned = accounts.create("Banned", "banned-" + UUID.randomUUID() + "@example.com", "banned-password-1",
                Role.DEVELOPER_API);
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            var issued = tokens.issueForClient(player.getId(), "game", Set.of("openid"), "auth-" + UUID.randomUUID(),
                    Duration.ofHours(1));
            jdbc.update("update api_tokens set expires_at = ? where token_digest = ?",
                    Timestamp.from(Instant.now().minusSeconds(60)), com.example.identity.crypto.Secrets.sha256Hex(issued));
            refused.add(issued);
        }
        for (int i = 0; i < 40; i++) {
            var issued = tokens.createPersonal(player.getId(), "revoked " + i);
            tokens.revoke(issued.token().getId());
            refused.add(issued.value());
        }
        for (int i = 0; i < 20; i++) {
            refused.add(tokens.createPersonal(banned.getId(), "banned " + i).value());
        }
        jdbc.update("update users set enabled = false where id = ?", banned.getId());
        String valid = tokens.createPersonal(player.getId(), "valid").value();

        var backEnd = v4();
        for (String token : refused) {
            var response = backEnd.get("/api/userinfo.php", "Authorization", "Bearer " + token);
            ApiAssertions.assertApiError(response, 401, "Token inválido o revocado");
        }
        assertThat(refused).hasSize(100);
        var ok = backEnd.get("/api/userinfo.php", "Authorization", "Bearer " + valid);
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);

        // and however many: more than the address's whole budget of unknown tokens
        for (int i = 0; i < UNKNOWN_TOKENS; i++) {
            assertThat(backEnd.get("/api/userinfo.php", "Authorization", "Bearer " + refused.get(i % refused.size()))
                    .statusCode()).isEqualTo(401);
        }
        assertThat(backEnd.get("/api/userinfo.php", "Authorization", "Bearer " + valid).statusCode()).isEqualTo(200);
    }

    /**
     * Unknown tokens (guessing) spend the address's budget: about {@value #UNKNOWN_TOKENS} a minute, then
     * 429 with {@code Retry-After} for every bearer request of that address, valid or not; other addresses
     * are untouched. A forged {@code X-Forwarded-For} from an untrusted peer changes nothing.
     */
    @Test
    @Order(3)
    void unknownBearerTokensAreSlowedAfterTheirBudget() {
        var owner = accounts.create("Valid", "valid-" + UUID.randomUUID() + "@example.com", "valid-password-12", Role.DEVELOPER_API);
        String valid = tokens.createPersonal(owner.getId(), "valid").value();
        var guesser = v6();
        long started = System.nanoTime();
        HttpResponse<String> limited = null;
        int refused = 0;
        while (refused < UNKNOWN_TOKENS * 2) {
            var response = guesser.get("/api/userinfo.php", "Authorization", "Bearer " + Secrets.randomHex(32),
                    "X-Forwarded-For", "198.51.100." + (refused % 250));
            if (response.statusCode() == 429) {
                limited = response;
                break;
            }
            ApiAssertions.assertApiError(response, 401, "Token inválido o revocado");
            refused++;
        }
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds() + 1;
        assertThat(limited).as("a guessing run is refused").isNotNull();
        assertThat(refused).as("never before the budget; at most the budget plus what refilled meanwhile")
                .isBetween(UNKNOWN_TOKENS, UNKNOWN_TOKENS + (int) (seconds * UNKNOWN_TOKENS / 60) + 1);
        ApiAssertions.assertApiError(limited, 429, TOO_MANY);
        assertThat(limited.headers().firstValue("Retry-After")).isPresent().get()
                .satisfies(v -> assertThat(Integer.parseInt(v)).isBetween(1, 60));

        // the budget refills one every 0.1 s; while it is spent, a valid token is refused too
        List<Integer> validFromGuesser = new ArrayList<>();
        for (int i = 0; i < 10 && !validFromGuesser.contains(429); i++) {
            guesser.get("/api/userinfo.php", "Authorization", "Bearer " + Secrets.randomHex(32));
            validFromGuesser.add(guesser.get("/api/userinfo.php", "Authorization", "Bearer " + valid).statusCode());
        }
        assertThat(validFromGuesser).as("the guessing address learns nothing, not even from a valid token")
                .contains(429);
        assertThat(v4().get("/api/userinfo.php", "Authorization", "Bearer " + valid).statusCode())
                .as("another address is untouched").isEqualTo(200);
    }

    /**
     * A partner's integration test run: 60 deliberate errors of every kind from one address, then a
     * valid exchange. Failures after the client authenticated cost nothing; the ones before it (30 here)
     * are far within the address's budget.
     */
    @Test
    @Order(4)
    void aPartnersTestRunOfSixtyErrorsEndsWithAValidExchange() {
        var client = newClient("Partner", "https://partner.example/cb");
        var site = v4();
        var user = v4();
        user.login("dev@example.com", "dev-demo-password");
        List<Integer> statuses = new ArrayList<>();

        for (int i = 0; i < 10; i++) { // wrong secrets, as form fields and as HTTP Basic
            statuses.add(i % 2 == 0 ? site.postForm(TOKEN, form(client, "x", Map.of("client_secret", "wrong-" + i))).statusCode()
                    : site.postForm(TOKEN, Map.of("grant_type", "authorization_code", "code", "x", "redirect_uri",
                            client.redirectUri()), "Authorization", basic(client.clientId(), "wrong")).statusCode());
        }
        for (int i = 0; i < 5; i++) { // unknown client
            statuses.add(site.postForm(TOKEN, form(client, "x", Map.of("client_id", "typo-" + i))).statusCode());
        }
        for (String missing : List.of("code", "redirect_uri", "client_id", "client_secret", "grant_type")) {
            var incomplete = form(client, "x", Map.of());
            incomplete.remove(missing);
            statuses.add(site.postForm(TOKEN, incomplete).statusCode());
        }
        for (String grantType : List.of("password", "client_credentials", "implicit", "refresh_token", "")) {
            statuses.add(site.postForm(TOKEN, form(client, "x", Map.of("grant_type", grantType))).statusCode());
        }
        for (int i = 0; i < 5; i++) { // bad parameters
            statuses.add(site.postRaw(TOKEN, WebClient.encode(form(client, "x", Map.of())) + "&code=y").statusCode());
        }
        String code = code(user, client, Map.of());
        assertThat(site.postForm(TOKEN, form(client, code, Map.of())).statusCode()).isEqualTo(200);
        for (int i = 0; i < 10; i++) { // replayed code
            statuses.add(site.postForm(TOKEN, form(client, code, Map.of())).statusCode());
        }
        for (int i = 0; i < 10; i++) { // unknown codes
            statuses.add(site.postForm(TOKEN, form(client, "unknown-" + i, Map.of())).statusCode());
        }
        for (int i = 0; i < 5; i++) { // wrong redirect_uri
            statuses.add(site.postForm(TOKEN, form(client, "x", Map.of("redirect_uri", client.redirectUri() + "/" + i)))
                    .statusCode());
        }
        String verifier = "v".repeat(43) + UUID.randomUUID();
        String pkceCode = code(user, client, Map.of("code_challenge", s256(verifier), "code_challenge_method", "S256"));
        for (int i = 0; i < 5; i++) { // wrong code_verifier
            statuses.add(site.postForm(TOKEN, form(client, pkceCode, Map.of("code_verifier", "w".repeat(43) + i)))
                    .statusCode());
        }

        assertThat(statuses).hasSize(60).allSatisfy(status -> assertThat(status).isIn(400, 401));
        var valid = site.postForm(TOKEN, form(client, pkceCode, Map.of("code_verifier", verifier)));
        assertThat(valid.statusCode()).as(valid.body()).isEqualTo(200);
        var another = site.postForm(TOKEN, form(client, code(user, client, Map.of()), Map.of()));
        assertThat(another.statusCode()).as(another.body()).isEqualTo(200);
    }

    /**
     * {@code ?client_id=VICTIM} with another client's valid HTTP Basic credentials and a junk code: the
     * failure is the authenticated client's, never VICTIM's, and costs the address nothing (more of them
     * than the address's whole budget).
     */
    @Test
    @Order(7)
    void aFailureIsChargedToTheClientThatAuthenticatedNeverToANamedOne() {
        var victim = newClient("Victim", "https://victim.example/cb");
        var attacker = newClient("Attacker", "https://attacker.example/cb");
        var web = v4();
        for (int i = 0; i < TOKEN_FAILURES + 50; i++) {
            var response = web.postForm(TOKEN + "?client_id=" + victim.clientId(),
                    Map.of("grant_type", "authorization_code", "code", "junk-" + i, "redirect_uri", attacker.redirectUri()),
                    "Authorization", basic(attacker.clientId(), attacker.clientSecret()));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        }
        var user = v4();
        user.login("dev@example.com", "dev-demo-password");
        var victimExchange = web.postForm(TOKEN, form(victim, code(user, victim, Map.of()), Map.of()));
        assertThat(victimExchange.statusCode()).as(victimExchange.body()).isEqualTo(200);
        var attackerExchange = web.postForm(TOKEN, form(attacker, code(user, attacker, Map.of()), Map.of()));
        assertThat(attackerExchange.statusCode()).as("its own failures do not lock it out either").isEqualTo(200);
    }

    /**
     * The guessing run: wrong secrets from one address get 429 with {@code Retry-After} once the address's
     * {@value #TOKEN_FAILURES} failures of the minute are spent, and then everything from that address does,
     * a valid exchange too; a forged {@code X-Forwarded-For} from an untrusted peer does not help. The
     * application itself and other addresses are not locked out.
     */
    @Test
    @Order(8)
    void guessingSecretsIsSlowedAfterTheAddressesBudget() {
        var target = newClient("Target", "https://target.example/cb");
        var guesser = v6();
        long started = System.nanoTime();
        HttpResponse<String> limited = null;
        int refused = 0;
        while (refused < TOKEN_FAILURES * 2) {
            var response = guesser.postForm(TOKEN, form(target, "x", Map.of("client_secret", Secrets.randomHex(32))),
                    "X-Forwarded-For", "203.0.113." + (refused % 250));
            if (response.statusCode() == 429) {
                limited = response;
                break;
            }
            assertThat(response.statusCode()).isEqualTo(401);
            refused++;
        }
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds() + 1;
        assertThat(limited).as("a guessing run is refused").isNotNull();
        assertThat(refused).isBetween(TOKEN_FAILURES, TOKEN_FAILURES + (int) (seconds * TOKEN_FAILURES / 60) + 1);
        assertThat(limited.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        assertThat(limited.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(limited.headers().firstValue("Retry-After")).isPresent().get()
                .satisfies(v -> assertThat(Integer.parseInt(v)).isBetween(1, 60));
        assertThat(limited.body()).isEqualTo("{\"error\":\"" + TOO_MANY + "\"}");

        var user = v4();
        user.login("dev@example.com", "dev-demo-password");
        // the budget refills one every 0.3 s; while it is spent, a valid exchange is refused too
        List<Integer> validFromGuesser = new ArrayList<>();
        for (int i = 0; i < 5 && !validFromGuesser.contains(429); i++) {
            String code = code(user, target, Map.of());
            guesser.postForm(TOKEN, form(target, "x", Map.of("client_secret", "wrong")));
            validFromGuesser.add(guesser.postForm(TOKEN, form(target, code, Map.of())).statusCode());
        }
        assertThat(validFromGuesser).as("the guessing address is refused whatever it sends").contains(429);
        assertThat(v4().postForm(TOKEN, form(target, code(user, target, Map.of()), Map.of())).statusCode())
                .as("the application is not locked out from its own address").isEqualTo(200);
    }

    ClientService.NewCredentials newClient(String name, String redirectUri) {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        return com.example.identity.support.FirstParty.register(clients, owner, name, redirectUri + "/" + UUID.randomUUID());
    }

    static final String TOKEN = "/oauth/token.php";

    static Map<String, String> form(ClientService.NewCredentials client, String code, Map<String, String> changes) {
        Map<String, String> form = OAuthForms.codeExchange(client, code);
        form.putAll(changes);
        return form;
    }

    static String code(WebClient user, ClientService.NewCredentials client, Map<String, String> extra) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("scope", "email");
        query.put("state", "s");
        query.putAll(extra);
        var redirect = user.get("/oauth/authorize.php?" + WebClient.encode(query));
        assertThat(redirect.statusCode()).as(redirect.body()).isEqualTo(302);
        return UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams().getFirst("code");
    }

    static String basic(String clientId, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((clientId + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    static String s256(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        }
        catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
