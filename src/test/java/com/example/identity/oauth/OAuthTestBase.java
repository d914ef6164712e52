package com.example.identity.oauth;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.client.SenderConstraints;
import com.example.identity.oauth.token.FamilyPauses;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;

/**
 * The application on a fixed free port with {@code identity.issuer} set to it, so that relying-party
 * libraries can follow the discovery document to the real endpoints. One context for every OAuth test,
 * with the pause points of {@link FamilyPauses} (inert unless a test arms one).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
@Import(FamilyPauses.class)
abstract class OAuthTestBase {

    static final int PORT = freePort();
    static final String ISSUER = "http://localhost:" + PORT;
    static final JsonMapper JSON = JsonMapper.builder().build();

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        registry.add("server.port", () -> PORT);
        registry.add("identity.issuer", () -> ISSUER);
    }

    @Autowired
    ClientService clients;

    @Autowired
    AccountService accounts;

    @Autowired
    AccountAdministration administration;

    @Autowired
    JdbcTemplate jdbc;

    /**
     * A new first-party application (no consent page, like the demo application) owned by the demo
     * developer, with its own redirect URI.
     */
    ClientService.NewCredentials newClient() {
        var client = newThirdPartyClient();
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new com.example.identity.account.Caller(admin, true), client.clientId(), true);
        return client;
    }

    /**
     * A new first-party web application, as {@link #newClient()}, that requires pushed authorization requests or
     * DPoP-bound tokens (decisions §28).
     */
    ClientService.NewCredentials newClient(SenderConstraints constraints) {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        var client = clients.register(owner, "Test app", "https://app.example/cb/" + UUID.randomUUID(), List.of(),
                ClientType.WEB, null, constraints);
        long admin = accounts.findByEmail("admin@example.com").orElseThrow().getId();
        clients.setFirstParty(new com.example.identity.account.Caller(admin, true), client.clientId(), true);
        return client;
    }

    /** A new application as a developer registers it: third-party, so its users see the consent page. */
    ClientService.NewCredentials newThirdPartyClient() {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        return clients.register(owner, "Test app", "https://app.example/cb/" + UUID.randomUUID());
    }

    /** A browser session of a fresh user with the given role. */
    WebClient loggedIn(Role role, String name) {
        String email = "u-" + UUID.randomUUID() + "@example.com";
        accounts.create(name, email, "correct-password-123", role);
        var web = new WebClient(ISSUER);
        var login = web.login(email, "correct-password-123");
        if (login.statusCode() != 302) {
            throw new AssertionError("login failed: " + login.statusCode());
        }
        return web;
    }

    /** An account of role user, logged in in a browser (cookie jar) of its own. */
    record User(long id, String email, WebClient browser) {
    }

    /** A new account of role user named {@code name}, logged in. */
    User newLoggedInUser(String name) {
        String email = "u-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create(name, email, "correct-password-123", Role.USER).getId();
        var web = new WebClient(ISSUER);
        if (web.login(email, "correct-password-123").statusCode() != 302) {
            throw new AssertionError("login failed for " + email);
        }
        return new User(id, email, web);
    }

    WebClient loggedInDeveloper() {
        return loggedIn(Role.DEVELOPER_API, "Dora");
    }

    static String authorizeUrl(ClientService.NewCredentials client, String scope, Map<String, String> extra) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        if (scope != null) {
            query.put("scope", scope);
        }
        query.putAll(extra);
        return "/oauth/authorize.php?" + WebClient.encode(query);
    }

    /** Runs the authorization request in {@code web}'s session and returns the code from the redirect. */
    static String authorize(WebClient web, ClientService.NewCredentials client, String scope, Map<String, String> extra) {
        HttpResponse<String> response = approvingConsent(web, web.get(authorizeUrl(client, scope, extra)));
        if (response.statusCode() != 302) {
            throw new AssertionError("authorize: " + response.statusCode() + " " + response.body());
        }
        String location = WebClient.location(response);
        var params = UriComponentsBuilder.fromUriString(location).build().getQueryParams();
        if (!location.startsWith(client.redirectUri() + "?") || params.getFirst("code") == null) {
            throw new AssertionError("no code in " + location);
        }
        return params.getFirst("code");
    }

    /**
     * When {@code response} sends the user to the consent page (offline_access always asks), the user
     * approves there, and the answer of the authorization request they are sent back to is returned;
     * otherwise {@code response} itself.
     */
    static HttpResponse<String> approvingConsent(WebClient web, HttpResponse<String> response) {
        String location = response.statusCode() == 302 ? localPart(WebClient.location(response)) : "";
        if (!location.startsWith("/oauth/consent?")) {
            return response;
        }
        HttpResponse<String> page = web.get(location);
        if (page.statusCode() != 200) {
            throw new AssertionError("consent page: " + page.statusCode());
        }
        String request = UriComponentsBuilder.fromUriString(location).build().getQueryParams().getFirst("request");
        HttpResponse<String> approved = web.postForm("/oauth/consent", Map.of("request",
                org.springframework.web.util.UriUtils.decode(request, java.nio.charset.StandardCharsets.UTF_8),
                "decision", "allow", "_csrf", WebClient.csrfOf(page.body())));
        if (approved.statusCode() != 302) {
            throw new AssertionError("consent: " + approved.statusCode() + " " + approved.body());
        }
        return web.get(WebClient.location(approved));
    }

    /** The path and query of a Location that may be absolute. */
    static String localPart(String location) {
        URI uri = URI.create(location);
        return uri.getScheme() == null ? location : uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    static String authorize(WebClient web, ClientService.NewCredentials client, String scope) {
        return authorize(web, client, scope, Map.of("state", "st-" + UUID.randomUUID()));
    }

    static Map<String, String> exchangeForm(ClientService.NewCredentials client, String code) {
        return OAuthForms.codeExchange(client, code);
    }

    static HttpResponse<String> exchange(ClientService.NewCredentials client, String code) {
        return new WebClient(ISSUER).postForm("/oauth/token.php", exchangeForm(client, code));
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    static URI uri(String path) {
        return URI.create(ISSUER + path);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits, polling, until the clock reads second {@code epochSecond} or later: auth_time and iat are whole
     * seconds, so a test that needs a later one waits for the next second, not a fixed time.
     */
    static void clockReaches(long epochSecond) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .pollInterval(java.time.Duration.ofMillis(20))
                .until(() -> java.time.Instant.now().getEpochSecond() >= epochSecond);
    }
}
