package com.example.identity.api;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
import com.example.identity.token.ApiToken;
import com.example.identity.token.ApiTokenService;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

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

    @GetMapping("/api/tokens/list.php")
    ResponseEntity<?> list(Authentication authentication, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Caller caller = ApiCaller.of(authentication).orElse(null);
        if (caller == null) {
            ApiJson.error(response, HttpServletResponse.SC_FORBIDDEN, ApiSecurityConfig.DENIED);
            return null;
        }
        ListQuery query = ApiPaging.query(request, response);
        if (query == null) {
            return null;
        }
        var page = tokens.page(caller, query);
        ApiPaging.links(response, "/api/tokens/list.php", query, page);
        List<TokenView> views = page.getContent().stream().map(TokenView::of).toList();
        return ApiJson.ok(new TokenList(true, views));
    }

    @PostMapping("/api/tokens/revoke.php")
    ResponseEntity<?> revoke(Authentication authentication, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Caller caller = ApiCaller.of(authentication).orElse(null);
        if (caller == null) {
            ApiJson.error(response, HttpServletResponse.SC_FORBIDDEN, ApiSecurityConfig.DENIED);
            return null;
        }
        String[] ids = request.getParameterValues("id");
        if (ids == null || ids.length == 0 || ids[0].isBlank()) {
            ApiJson.error(response, HttpServletResponse.SC_BAD_REQUEST, "Falta el parámetro id");
            return null;
        }
        long id;
        try {
            if (ids.length > 1 || ids[0].length() > 19) {
                throw new NumberFormatException();
            }
            id = Long.parseLong(ids[0]);
        }
        catch (NumberFormatException e) {
            ApiJson.error(response, HttpServletResponse.SC_BAD_REQUEST, "id inválido");
            return null;
        }
        if (!tokens.revokeAs(caller, id)) {
            ApiJson.error(response, HttpServletResponse.SC_NOT_FOUND, "Token no encontrado");
            return null;
        }
        return ApiJson.ok(Map.of("ok", true));
    }

    /** ISO-8601 UTC to the second, or null. */
    static String iso(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    record TokenList(boolean ok, List<TokenView> tokens) {
    }

    @JsonPropertyOrder({ "id", "name", "prefix", "created_at", "last_used_at", "expires_at", "revoked" })
    record TokenView(long id, String name, String prefix, @JsonProperty("created_at") String createdAt,
            @JsonProperty("last_used_at") String lastUsedAt, @JsonProperty("expires_at") String expiresAt,
            boolean revoked) {

        static TokenView of(ApiToken token) {
            return new TokenView(token.getId(), token.getName(), token.getPrefix(), iso(token.getCreatedAt()),
                    iso(token.getLastUsedAt()), iso(token.getExpiresAt()), token.isRevoked());
        }
    }
}
