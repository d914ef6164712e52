package com.example.identity.leaving;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
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
import org.springframework.web.util.UriUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;

/**
 * The application on a fixed free port with {@code identity.issuer} set to it (tokens name the issuer a
 * relying party reaches), and the steps of a web site's login: authorization request (consent approved when
 * asked), code exchange.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
@Import(DeletedAccounts.class) // one context for every test class here: they share the fixed port
abstract class LeavingTestBase {

    static final int PORT = freePort();
    static final String ISSUER = "http://localhost:" + PORT;
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String PASSWORD = "correct-password-123";

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        registry.add("server.port", () -> PORT);
        registry.add("identity.issuer", () -> ISSUER);
    }

    @Autowired
    AccountService accounts;

    @Autowired
    AccountAdministration administration;

    @Autowired
    ClientService clients;

    @Autowired
    JdbcTemplate jdbc;

    record User(long id, String email, WebClient browser) {
    }

    User newLoggedInUser(Role role) {
        String email = "leaving-" + UUID.randomUUID() + "@example.com";
        long id = accounts.create("Lea", email, PASSWORD, role).getId();
        return new User(id, email, login(email));
    }

    WebClient login(String email) {
        var web = new WebClient(ISSUER);
        HttpResponse<String> login = web.login(email, PASSWORD);
        if (login.statusCode() != 302) {
            throw new AssertionError("login failed for " + email + ": " + login.statusCode());
        }
        return web;
    }

    long adminId() {
        return accounts.findByEmail("admin@example.com").orElseThrow().getId();
    }

    /** A first-party application owned by {@code ownerId}. */
    ClientService.NewCredentials newClient(long ownerId) {
        var client = clients.register(ownerId, "Leaving app", "https://app.example/cb/" + UUID.randomUUID());
        clients.setFirstParty(new Caller(adminId(), true), client.clientId(), true);
        return client;
    }

    /** The token response of a code flow of {@code client} in {@code web}'s session. */
    static JsonNode tokens(WebClient web, ClientService.NewCredentials client, String scope) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.clientId());
        query.put("redirect_uri", client.redirectUri());
        query.put("scope", scope);
        query.put("state", "st-" + UUID.randomUUID());
        query.put("nonce", "n-" + UUID.randomUUID());
        HttpResponse<String> response = approvingConsent(web, web.get("/oauth/authorize.php?" + WebClient.encode(query)));
        if (response.statusCode() != 302) {
            throw new AssertionError("authorize: " + response.statusCode() + " " + response.body());
        }
        String code = UriComponentsBuilder.fromUriString(WebClient.location(response)).build().getQueryParams()
                .getFirst("code");
        HttpResponse<String> exchanged = new WebClient(ISSUER).postForm("/oauth/token.php",
                OAuthForms.codeExchange(client, code));
        if (exchanged.statusCode() != 200) {
            throw new AssertionError("token: " + exchanged.statusCode() + " " + exchanged.body());
        }
        return JSON.readTree(exchanged.body());
    }

    private static HttpResponse<String> approvingConsent(WebClient web, HttpResponse<String> response) {
        String location = response.statusCode() == 302 ? localPart(WebClient.location(response)) : "";
        if (!location.startsWith("/oauth/consent?")) {
            return response;
        }
        HttpResponse<String> page = web.get(location);
        String request = UriComponentsBuilder.fromUriString(location).build().getQueryParams().getFirst("request");
        HttpResponse<String> approved = web.postForm("/oauth/consent", Map.of("request",
                UriUtils.decode(request, StandardCharsets.UTF_8), "decision", "allow", "_csrf",
                WebClient.csrfOf(page.body())));
        return web.get(WebClient.location(approved));
    }

    static String localPart(String location) {
        URI uri = URI.create(location);
        return uri.getScheme() == null ? location
                : uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
