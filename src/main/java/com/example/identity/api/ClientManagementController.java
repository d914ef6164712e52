package com.example.identity.api;

import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.Endpoints;
import com.example.identity.account.Caller;
import com.example.identity.client.ClientLogoutUris;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.client.OAuthClient;
import com.example.identity.client.SenderConstraints;
import com.example.identity.common.ListQuery;
import com.example.identity.webhooks.Webhooks;

/**
 * The JSON twins of the dashboard's application actions (decisions §11): list, create and revoke
 * under {@code /api/clients/}, through the same {@link ClientService} methods as the pages.
 */
@RestController
class ClientManagementController {

    /** Decisions §24: {@code invitados} is {@code true} or {@code false} (absent: false). */
    static final String BAD_GUESTS = "invitados inválido: true o false";

    private final ClientService clients;
    private final ClientLogoutUris logoutUris;
    private final Webhooks webhooks;

    ClientManagementController(ClientService clients, ClientLogoutUris logoutUris, Webhooks webhooks) {
        this.clients = clients;
        this.logoutUris = logoutUris;
        this.webhooks = webhooks;
    }

    @GetMapping(Endpoints.API_LIST_CLIENTS)
    ResponseEntity<ClientList> list(Authentication authentication, HttpServletRequest request,
            HttpServletResponse response) {
        Caller caller = ApiCaller.require(authentication);
        ListQuery query = ApiPaging.query(request);
        var page = clients.page(caller, query);
        ApiPaging.links(response, Endpoints.API_LIST_CLIENTS, query, page);
        Map<String, List<String>> logout = logoutUris.of(page.getContent().stream().map(OAuthClient::getClientId).toList());
        return ApiJson.ok(new ClientList(true, page.getContent().stream()
                .map(c -> ClientView.of(c, logout.get(c.getClientId()))).toList()));
    }

    @PostMapping(Endpoints.API_CREATE_CLIENT)
    ResponseEntity<Created> create(Authentication authentication, HttpServletRequest request) {
        Caller caller = ApiCaller.require(authentication);
        String name = FormFields.single(request, "name");
        String redirectUri = FormFields.single(request, "redirect_uri");
        // repeatable (decisions §12.7): every address a logout may come back to
        String[] logoutValues = request.getParameterValues("post_logout_redirect_uri");
        // decisions §16 and §21: web (default), nativa, dispositivo or servidor
        String typeName = FormFields.single(request, "type");
        ClientType type = typeName == null || typeName.isEmpty() ? ClientType.WEB : ClientType.parse(typeName)
                .orElseThrow(() -> ApiProblem.badRequest("type inválido: web, nativa, dispositivo o servidor"));
        // decisions §28: the application requires pushed authorization requests, DPoP-bound tokens
        var constraints = new SenderConstraints(FormFields.flag(request, "par_obligatorio"),
                FormFields.flag(request, "dpop_obligatorio"));
        // decisions §24: a nativa or dispositivo application may accept guest players
        boolean guests = switch (FormFields.single(request, "invitados")) {
            case "", "false" -> false;
            case "true" -> true;
            default -> throw ApiProblem.badRequest(BAD_GUESTS);
        };
        try {
            // decisions §21: where the application's webhooks go (optional), checked before anything is made
            var webhookUrl = webhooks.check(FormFields.single(request, "webhook_url"));
            // decisions §20: where the logout tokens of Back-Channel Logout go (optional)
            var created = clients.register(caller.userId(), name, redirectUri,
                    logoutValues == null ? List.of() : List.of(logoutValues), type,
                    FormFields.single(request, "backchannel_logout_uri"), constraints, guests);
            String webhookSecret = webhookUrl.map(url -> webhooks.register(created.clientId(), url)).orElse(null);
            return ApiJson.ok(new Created(true, new CreatedClient(created.clientId(), created.clientSecret(), created.name(),
                    created.redirectUri(), type.value(), logoutUris.of(created.clientId()),
                    Requirements.of(constraints), guests, webhookUrl.orElse(null), webhookSecret)));
        }
        catch (ClientService.InvalidRegistrationException | Webhooks.InvalidWebhookUrlException e) {
            throw ApiProblem.badRequest(e.getMessage());
        }
    }

    @PostMapping(Endpoints.API_REVOKE_CLIENT)
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

    /**
     * The documented fields, then {@code type} (decisions §16: {@code web}, {@code nativa} or
     * {@code dispositivo}), the registered {@code post_logout_redirect_uris} (§12.7; an array, maybe empty),
     * {@code par_obligatorio} and {@code dpop_obligatorio} (§28), and {@code invitados} (§24: whether it accepts guest
     * players).
     */
    @JsonPropertyOrder({ "client_id", "name", "redirect_uri", "created_at", "revoked", "type", "post_logout_redirect_uris",
            "requirements", "invitados" })
    record ClientView(@JsonProperty("client_id") String clientId, String name,
            @JsonProperty("redirect_uri") String redirectUri, @JsonProperty("created_at") String createdAt,
            boolean revoked, String type, @JsonProperty("post_logout_redirect_uris") List<String> postLogoutRedirectUris,
            @JsonUnwrapped Requirements requirements, boolean invitados) {

        static ClientView of(OAuthClient client, List<String> postLogoutRedirectUris) {
            return new ClientView(client.getClientId(), client.getName(), client.getRedirectUri(),
                    TokenManagementController.iso(client.getCreatedAt()), client.isRevoked(), client.getType().value(),
                    postLogoutRedirectUris, new Requirements(client.requiresPushedRequests(), client.requiresDPoP()),
                    client.acceptsGuests());
        }
    }

    /** What an application requires of its requests (decisions §28), as two fields of the application's object. */
    @JsonPropertyOrder({ "par_obligatorio", "dpop_obligatorio" })
    record Requirements(@JsonProperty("par_obligatorio") boolean parObligatorio,
            @JsonProperty("dpop_obligatorio") boolean dpopObligatorio) {

        static Requirements of(SenderConstraints constraints) {
            return new Requirements(constraints.pushedRequests(), constraints.dpop());
        }
    }

    record Created(boolean ok, CreatedClient client) {
    }

    /**
     * The documented fields, then {@code type}, {@code post_logout_redirect_uris} (as registered: repeats
     * once, in the order of the addresses), {@code par_obligatorio} and {@code dpop_obligatorio} (decisions §28) and
     * {@code invitados} (§24); a native application's {@code client_secret} is null (it has none). With a
     * {@code webhook_url} (decisions §21), it and the webhook's {@code webhook_secret} ({@code whsec_...}, shown this
     * once) follow; without one, neither field is there.
     */
    @JsonPropertyOrder({ "client_id", "client_secret", "name", "redirect_uri", "type", "post_logout_redirect_uris",
            "requirements", "invitados", "webhook_url", "webhook_secret" })
    record CreatedClient(@JsonProperty("client_id") String clientId, @JsonProperty("client_secret") String clientSecret,
            String name, @JsonProperty("redirect_uri") String redirectUri, String type,
            @JsonProperty("post_logout_redirect_uris") List<String> postLogoutRedirectUris,
            @JsonUnwrapped Requirements requirements, boolean invitados,
            @JsonProperty("webhook_url") @JsonInclude(JsonInclude.Include.NON_NULL) String webhookUrl,
            @JsonProperty("webhook_secret") @JsonInclude(JsonInclude.Include.NON_NULL) String webhookSecret) {
    }
}
