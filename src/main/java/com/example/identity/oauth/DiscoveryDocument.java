package com.example.identity.oauth;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.springframework.security.oauth2.server.authorization.oidc.OidcProviderConfiguration;

/**
 * {@code /.well-known/openid-configuration} says exactly what this server does, nothing more: the four
 * documented endpoints and RP-initiated logout, the code flow with {@code client_secret_basic} or {@code client_secret_post},
 * PKCE with {@code S256}, RS256 id_tokens with their claims. Spring Authorization Server's defaults
 * (device flow, introspection, revocation, userinfo, DPoP, mTLS) are not served here and are
 * therefore not announced.
 */
class DiscoveryDocument implements Consumer<OidcProviderConfiguration.Builder> {

    @Override
    public void accept(OidcProviderConfiguration.Builder builder) {
        builder.claims(claims -> {
            Object issuer = claims.get("issuer");
            Object authorize = claims.get("authorization_endpoint");
            Object token = claims.get("token_endpoint");
            Object jwks = claims.get("jwks_uri");
            claims.clear();
            claims.putAll(Map.of(
                    "issuer", issuer,
                    "authorization_endpoint", authorize,
                    "token_endpoint", token,
                    "jwks_uri", jwks,
                    "scopes_supported", List.of("openid", "email", "profile"),
                    "response_types_supported", List.of("code"),
                    "response_modes_supported", List.of("query"),
                    "grant_types_supported", List.of("authorization_code"),
                    "subject_types_supported", List.of("public"),
                    "id_token_signing_alg_values_supported", List.of("RS256")));
            claims.put("token_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post"));
            claims.put("code_challenge_methods_supported", List.of("S256"));
            // RP-initiated logout (LogoutEndpoint), at the issuer like the other endpoints
            claims.put("end_session_endpoint", issuer + LogoutEndpoint.PATH);
            claims.put("claims_supported",
                    List.of("iss", "aud", "sub", "exp", "iat", "auth_time", "nonce", "azp", "amr", "email", "name"));
            // the authorization request's parameters (decisions §12.2, AuthenticationRequestFilter)
            claims.put("prompt_values_supported", List.of("none", "login"));
            claims.put("display_values_supported", List.of("page", "popup"));
            claims.put("claims_parameter_supported", true);
            claims.put("request_parameter_supported", false);
            claims.put("request_uri_parameter_supported", false);
        });
    }
}
