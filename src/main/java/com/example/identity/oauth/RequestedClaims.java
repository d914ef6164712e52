package com.example.identity.oauth;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code claims} parameter of an authentication request (OIDC Core §5.5): a JSON object whose members
 * {@code id_token} and {@code userinfo} name the claims wanted, each {@code null} or an object with
 * {@code essential}, {@code value} or {@code values}. A malformed value is refused ({@code invalid_request});
 * of a well-formed one, the claims this server knows ({@link #ID_TOKEN_CLAIMS}) that are asked for in the
 * id_token are added to it, essential or not; the {@code userinfo} member is accepted and, as long as this
 * server's UserInfo answer does not depend on it, not acted upon; unknown claims are ignored.
 */
final class RequestedClaims {

    /** Claims an id_token gets on request even without the scope that usually brings them. */
    static final Set<String> ID_TOKEN_CLAIMS = Set.of("email", "name");

    /** Longest {@code claims} value read; a longer one is refused. */
    static final int MAX_LENGTH = 4096;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RequestedClaims() {
    }

    /** Whether {@code claims} is absent or a well-formed claims request. */
    static boolean isWellFormed(@Nullable String claims) {
        return claims == null || parse(claims) != null;
    }

    /** The known claims asked for in the id_token; empty when none is, or the value is absent or malformed. */
    static Set<String> idTokenClaims(@Nullable String claims) {
        JsonNode request = claims == null ? null : parse(claims);
        JsonNode idToken = request == null ? null : request.get("id_token");
        if (idToken == null || !idToken.isObject()) {
            return Set.of();
        }
        Set<String> known = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> claim : idToken.properties()) {
            if (ID_TOKEN_CLAIMS.contains(claim.getKey())) {
                known.add(claim.getKey());
            }
        }
        return known;
    }

    private static @Nullable JsonNode parse(String claims) {
        if (claims.length() > MAX_LENGTH) {
            return null;
        }
        JsonNode root;
        try {
            root = JSON.readTree(claims);
        }
        catch (JacksonException e) {
            return null;
        }
        if (root == null || !root.isObject()) {
            return null;
        }
        for (Map.Entry<String, JsonNode> member : root.properties()) {
            if (("id_token".equals(member.getKey()) || "userinfo".equals(member.getKey()))
                    && !isClaimList(member.getValue())) {
                return null;
            }
        }
        return root;
    }

    /** An object whose every value is null or an object with a boolean {@code essential} and an array {@code values}, if present. */
    private static boolean isClaimList(JsonNode list) {
        if (!list.isObject()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> claim : list.properties()) {
            JsonNode spec = claim.getValue();
            if (spec.isNull()) {
                continue;
            }
            if (!spec.isObject()) {
                return false;
            }
            JsonNode essential = spec.get("essential");
            JsonNode values = spec.get("values");
            if ((essential != null && !essential.isBoolean()) || (values != null && !values.isArray())) {
                return false;
            }
        }
        return true;
    }
}
