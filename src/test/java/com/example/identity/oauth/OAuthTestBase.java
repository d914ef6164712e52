package com.example.identity.oauth;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.OAuthForms;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The application on a fixed free port with {@code identity.issuer} set to it, so that relying-party
 * libraries can follow the discovery document to the real endpoints. One context for every OAuth test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("test")
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
    JdbcTemplate jdbc;

    /** A new application owned by the demo developer, with its own redirect URI. */
    ClientService.NewCredentials newClient() {
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
        HttpResponse<String> response = web.get(authorizeUrl(client, scope, extra));
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
}
