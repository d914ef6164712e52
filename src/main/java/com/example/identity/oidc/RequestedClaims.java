package com.example.identity.oidc;

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
 * {@code essential}, {@code value} or {@code values}. A malformed value is refused ({@code invalid_request}).
 * Of a well-formed one:
 * <ul>
 * <li>the user claims of {@link #KNOWN} (every user claim that {@code claims_supported} announces) asked for in
 * the id_token are added to it, and those asked for in {@code userinfo} to the UserInfo answer, essential or
 * not, each on its own, even without the scope that usually brings them;</li>
 * <li>{@code sub} with a {@code value} in the id_token (§5.5.1) is a demand for that user
 * ({@link #requiredSubject}): another user's session means a fresh login, and a login of another user is
 * refused;</li>
 * <li>{@code acr} in the id_token with {@code mfa} among its {@code value}/{@code values}, or essential
 * without values, demands a second factor like {@code acr_values=mfa} ({@link #demandsSecondFactor}); as an
 * essential claim with only values this server never gives, it cannot be met and the request is refused
 * ({@link #demandsUnknownAcr}, §5.5.1.1);</li>
 * <li>{@code auth_time}, {@code amr} and {@code sub} are in every id_token anyway, {@code acr} whenever a
 * second factor was used; other claims are ignored.</li>
 * </ul>
 */
public final class RequestedClaims {

    /** The one authentication context class this server states: a login with two factors. */
    public static final String ACR_MFA = "mfa";

    /** User claims an id_token or a UserInfo answer gets on request even without the scope that usually brings them. */
    public static final Set<String> KNOWN = Set.of("email", "email_verified", "name", "given_name", "invitado");

    /** Longest {@code claims} value read; a longer one is refused. */
    public static final int MAX_LENGTH = 4096;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RequestedClaims() {
    }

    /** Whether {@code claims} is absent or a well-formed claims request. */
    public static boolean isWellFormed(@Nullable String claims) {
        return claims == null || parse(claims) != null;
    }

    /** The known claims asked for in the id_token; empty when none is, or the value is absent or malformed. */
    public static Set<String> idTokenClaims(@Nullable String claims) {
        return knownClaims(claims, "id_token");
    }

    /** The known claims asked for at the UserInfo endpoint; empty when none is, or the value is absent or malformed. */
    public static Set<String> userInfoClaims(@Nullable String claims) {
        return knownClaims(claims, "userinfo");
    }

    /**
     * The scopes whose consent covers the user claims asked for in {@code claims} (in the id_token or at
     * UserInfo): {@code email} for {@code email} and {@code email_verified}, {@code profile} for {@code name}
     * and {@code given_name}. The consent page shows, and the user grants, what the application will see
     * whether it asked by scope or by claim (decisions §12.6).
     */
    public static Set<String> consentScopes(@Nullable String claims) {
        Set<String> asked = new LinkedHashSet<>(knownClaims(claims, "id_token"));
        asked.addAll(knownClaims(claims, "userinfo"));
        Set<String> scopes = new LinkedHashSet<>();
        if (asked.contains("email") || asked.contains("email_verified")) {
            scopes.add("email");
        }
        if (asked.contains("name") || asked.contains("given_name")) {
            scopes.add("profile");
        }
        return scopes;
    }

    /**
     * The user the id_token must be about: the string {@code value} of {@code sub} asked for in the id_token
     * (OIDC Core §5.5.1), or null.
     */
    public static @Nullable String requiredSubject(@Nullable String claims) {
        JsonNode sub = idTokenClaim(claims, "sub");
        JsonNode value = sub == null ? null : sub.get("value");
        return value != null && value.isString() ? value.asString() : null;
    }

    /**
     * Whether {@code acr} is asked for in the id_token with {@code mfa} among its values, or as an essential
     * claim without values (any class will do, and a login with two factors is the one this server states).
     */
    public static boolean demandsSecondFactor(@Nullable String claims) {
        JsonNode acr = idTokenClaim(claims, "acr");
        if (acr == null) {
            return false;
        }
        Set<String> values = acrValues(acr);
        return values.contains(ACR_MFA) || (values.isEmpty() && isEssential(acr));
    }

    /** Whether {@code acr} is asked for as an essential claim of the id_token with values of which none is served. */
    public static boolean demandsUnknownAcr(@Nullable String claims) {
        JsonNode acr = idTokenClaim(claims, "acr");
        if (acr == null || !isEssential(acr)) {
            return false;
        }
        Set<String> values = acrValues(acr);
        return !values.isEmpty() && !values.contains(ACR_MFA);
    }

    private static boolean isEssential(JsonNode spec) {
        JsonNode essential = spec.get("essential");
        return essential != null && essential.asBoolean(false);
    }

    private static Set<String> acrValues(JsonNode acr) {
        Set<String> values = new LinkedHashSet<>();
        JsonNode value = acr.get("value");
        if (value != null && value.isString()) {
            values.add(value.asString());
        }
        JsonNode list = acr.get("values");
        if (list != null) {
            list.valueStream().filter(JsonNode::isString).forEach(v -> values.add(v.asString()));
        }
        return values;
    }

    /** The specification of one claim asked for in the id_token when it is an object, else null. */
    private static @Nullable JsonNode idTokenClaim(@Nullable String claims, String name) {
        JsonNode request = claims == null || claims.isEmpty() ? null : parse(claims);
        JsonNode list = request == null ? null : request.get("id_token");
        JsonNode spec = list == null || !list.isObject() ? null : list.get(name);
        return spec != null && spec.isObject() ? spec : null;
    }

    private static Set<String> knownClaims(@Nullable String claims, String member) {
        JsonNode request = claims == null ? null : parse(claims);
        JsonNode list = request == null ? null : request.get(member);
        if (list == null || !list.isObject()) {
            return Set.of();
        }
        Set<String> known = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> claim : list.properties()) {
            if (KNOWN.contains(claim.getKey())) {
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
            // the two whose values this server acts on must be strings (OIDC Core §5.5.1, §5.5.1.1)
            JsonNode value = spec.get("value");
            if (("sub".equals(claim.getKey()) || "acr".equals(claim.getKey()))
                    && ((value != null && !value.isString())
                            || (values != null && values.valueStream().anyMatch(v -> !v.isString())))) {
                return false;
            }
        }
        return true;
    }
}
