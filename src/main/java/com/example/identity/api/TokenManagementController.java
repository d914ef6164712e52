package com.example.identity.api;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.identity.Endpoints;
import com.example.identity.account.Caller;
import com.example.identity.common.ListQuery;
import com.example.identity.apitoken.ApiToken;
import com.example.identity.apitoken.ApiTokenService;

/**
 * The JSON twins of the dashboard's token actions (decisions §11): {@code GET /api/tokens/list.php} and
 * {@code POST /api/tokens/revoke.php}, through the same {@link ApiTokenService} methods as the pages.
 */
@RestController
class TokenManagementController {

    private final ApiTokenService tokens;

    TokenManagementController(ApiTokenService tokens) {
        this.tokens = tokens;
    }

    @GetMapping(Endpoints.API_LIST_TOKENS)
    ResponseEntity<TokenList> list(Authentication authentication, HttpServletRequest request,
            HttpServletResponse response) {
        Caller caller = ApiCaller.require(authentication);
        ListQuery query = ApiPaging.query(request);
        var page = tokens.page(caller, query);
        ApiPaging.links(response, Endpoints.API_LIST_TOKENS, query, page);
        return ApiJson.ok(new TokenList(true, page.getContent().stream().map(TokenView::of).toList()));
    }

    @PostMapping(Endpoints.API_REVOKE_TOKEN)
    ResponseEntity<Map<String, Boolean>> revoke(Authentication authentication, HttpServletRequest request) {
        Caller caller = ApiCaller.require(authentication);
        if (!tokens.revokeAs(caller, id(request))) {
            throw ApiProblem.notFound("Token no encontrado");
        }
        return ApiJson.ok(Map.of("ok", true));
    }

    /** The {@code id} field: present, sent once, a number. */
    private static long id(HttpServletRequest request) {
        String[] ids = request.getParameterValues("id");
        if (ids == null || ids.length == 0 || ids[0].isBlank()) {
            throw ApiProblem.badRequest("Falta el parámetro id");
        }
        try {
            if (ids.length > 1 || ids[0].length() > 19) {
                throw new NumberFormatException();
            }
            return Long.parseLong(ids[0]);
        }
        catch (NumberFormatException e) {
            throw ApiProblem.badRequest("id inválido");
        }
    }

    /** ISO-8601 UTC to the second, or null. */
    static String iso(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    record TokenList(boolean ok, List<TokenView> tokens) {
    }

    /** {@code scope}: {@code perfil} or {@code gestion} for a personal token, the OAuth scopes for a client's. */
    @JsonPropertyOrder({ "id", "name", "prefix", "created_at", "last_used_at", "expires_at", "revoked", "scope" })
    record TokenView(long id, String name, String prefix, @JsonProperty("created_at") String createdAt,
            @JsonProperty("last_used_at") String lastUsedAt, @JsonProperty("expires_at") String expiresAt,
            boolean revoked, String scope) {

        static TokenView of(ApiToken token) {
            return new TokenView(token.getId(), token.getName(), token.getPrefix(), iso(token.getCreatedAt()),
                    iso(token.getLastUsedAt()), iso(token.getExpiresAt()), token.isRevoked(), token.scope());
        }
    }
}
