package com.example.identity.api;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.account.Caller;
import com.example.identity.common.ListQuery;
import com.example.identity.api.ApiCaller;
import com.example.identity.api.ApiJson;
import com.example.identity.client.ClientService;
import com.example.identity.client.OAuthClient;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The JSON twins of the dashboard's application actions (decisions §11): list, create and revoke
 * under {@code /api/clients/}, through the same {@link ClientService} methods as the pages.
 */
@RestController
class ClientManagementController {

    private final ClientService clients;

    ClientManagementController(ClientService clients) {
        this.clients = clients;
    }

    @GetMapping("/api/clients/list.php")
    ResponseEntity<?> list(Authentication authentication, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Caller caller = caller(authentication, response);
        if (caller == null) {
            return null;
        }
        ListQuery query = ApiPaging.query(request, response);
        if (query == null) {
            return null;
        }
        var page = clients.page(caller, query);
        ApiPaging.links(response, "/api/clients/list.php", query, page);
        return ApiJson.ok(new ClientList(true, page.getContent().stream().map(ClientView::of).toList()));
    }

    @PostMapping("/api/clients/create.php")
    ResponseEntity<?> create(Authentication authentication, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Caller caller = caller(authentication, response);
        if (caller == null) {
            return null;
        }
        String name = single(request, "name");
        String redirectUri = single(request, "redirect_uri");
        if (name == null || redirectUri == null) {
            ApiJson.error(response, HttpServletResponse.SC_BAD_REQUEST,
                    name == null ? "Parámetro repetido: name" : "Parámetro repetido: redirect_uri");
            return null;
        }
        try {
            var created = clients.register(caller.userId(), name, redirectUri);
            return ApiJson.ok(new Created(true, new CreatedClient(created.clientId(), created.clientSecret(), created.name(),
                    created.redirectUri())));
        }
        catch (ClientService.InvalidRegistrationException e) {
            ApiJson.error(response, HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
            return null;
        }
    }

    @PostMapping("/api/clients/revoke.php")
    ResponseEntity<?> revoke(Authentication authentication, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Caller caller = caller(authentication, response);
        if (caller == null) {
            return null;
        }
        String clientId = single(request, "client_id");
        if (clientId == null || clientId.isBlank()) {
            ApiJson.error(response, HttpServletResponse.SC_BAD_REQUEST, "Falta el parámetro client_id");
            return null;
        }
        if (!clients.revokeAs(caller, clientId)) {
            ApiJson.error(response, HttpServletResponse.SC_NOT_FOUND, "Aplicación no encontrada");
            return null;
        }
        return ApiJson.ok(Map.of("ok", true));
    }

    private static Caller caller(Authentication authentication, HttpServletResponse response) throws IOException {
        Caller caller = ApiCaller.of(authentication).orElse(null);
        if (caller == null) {
            ApiJson.error(response, HttpServletResponse.SC_FORBIDDEN, "Permiso denegado");
        }
        return caller;
    }

    /** The one value of a form field, "" when absent, null when sent more than once. */
    private static String single(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        if (values == null || values.length == 0) {
            return "";
        }
        return values.length == 1 ? values[0] : null;
    }

    record ClientList(boolean ok, List<ClientView> clients) {
    }

    @JsonPropertyOrder({ "client_id", "name", "redirect_uri", "created_at", "revoked" })
    record ClientView(@JsonProperty("client_id") String clientId, String name,
            @JsonProperty("redirect_uri") String redirectUri, @JsonProperty("created_at") String createdAt,
            boolean revoked) {

        static ClientView of(OAuthClient client) {
            return new ClientView(client.getClientId(), client.getName(), client.getRedirectUri(),
                    client.getCreatedAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(),
                    client.isRevoked());
        }
    }

    record Created(boolean ok, CreatedClient client) {
    }

    @JsonPropertyOrder({ "client_id", "client_secret", "name", "redirect_uri" })
    record CreatedClient(@JsonProperty("client_id") String clientId, @JsonProperty("client_secret") String clientSecret,
            String name, @JsonProperty("redirect_uri") String redirectUri) {
    }
}
