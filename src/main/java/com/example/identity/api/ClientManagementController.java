package com.example.identity.api;

import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.account.Caller;
import com.example.identity.common.ListQuery;
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
    ResponseEntity<ClientList> list(Authentication authentication, HttpServletRequest request,
            HttpServletResponse response) {
        Caller caller = ApiCaller.require(authentication);
        ListQuery query = ApiPaging.query(request);
        var page = clients.page(caller, query);
        ApiPaging.links(response, "/api/clients/list.php", query, page);
        return ApiJson.ok(new ClientList(true, page.getContent().stream().map(ClientView::of).toList()));
    }

    @PostMapping("/api/clients/create.php")
    ResponseEntity<Created> create(Authentication authentication, HttpServletRequest request) {
        Caller caller = ApiCaller.require(authentication);
        String name = FormFields.single(request, "name");
        String redirectUri = FormFields.single(request, "redirect_uri");
        // repeatable (decisions §12.7): every address a logout may come back to
        String[] logoutUris = request.getParameterValues("post_logout_redirect_uri");
        try {
            var created = clients.register(caller.userId(), name, redirectUri,
                    logoutUris == null ? List.of() : List.of(logoutUris));
            return ApiJson.ok(new Created(true, new CreatedClient(created.clientId(), created.clientSecret(), created.name(),
                    created.redirectUri())));
        }
        catch (ClientService.InvalidRegistrationException e) {
            throw ApiProblem.badRequest(e.getMessage());
        }
    }

    @PostMapping("/api/clients/revoke.php")
    ResponseEntity<Map<String, Boolean>> revoke(Authentication authentication, HttpServletRequest request) {
        Caller caller = ApiCaller.require(authentication);
        String clientId = FormFields.single(request, "client_id");
        if (clientId.isBlank()) {
            throw ApiProblem.badRequest("Falta el parámetro client_id");
        }
        if (!clients.revokeAs(caller, clientId)) {
            throw ApiProblem.notFound("Aplicación no encontrada");
        }
        return ApiJson.ok(Map.of("ok", true));
    }

    record ClientList(boolean ok, List<ClientView> clients) {
    }

    @JsonPropertyOrder({ "client_id", "name", "redirect_uri", "created_at", "revoked" })
    record ClientView(@JsonProperty("client_id") String clientId, String name,
            @JsonProperty("redirect_uri") String redirectUri, @JsonProperty("created_at") String createdAt,
            boolean revoked) {

        static ClientView of(OAuthClient client) {
            return new ClientView(client.getClientId(), client.getName(), client.getRedirectUri(),
                    TokenManagementController.iso(client.getCreatedAt()), client.isRevoked());
        }
    }

    record Created(boolean ok, CreatedClient client) {
    }

    @JsonPropertyOrder({ "client_id", "client_secret", "name", "redirect_uri" })
    record CreatedClient(@JsonProperty("client_id") String clientId, @JsonProperty("client_secret") String clientSecret,
            String name, @JsonProperty("redirect_uri") String redirectUri) {
    }
}
