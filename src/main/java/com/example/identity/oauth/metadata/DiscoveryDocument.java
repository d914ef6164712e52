package com.example.identity.oauth.metadata;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.springframework.security.oauth2.server.authorization.oidc.OidcProviderConfiguration;

import com.example.identity.Endpoints;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.oauth.authorize.AuthenticationRequestFilter;
import com.example.identity.oauth.token.DeviceCodeRequests;
import com.example.identity.oauth.token.TicketRequests;

/**
 * {@code /.well-known/openid-configuration} says exactly what this server does, nothing more (decisions §12):
 * the authorization, token, UserInfo, revocation, introspection, device authorization and end-session
 * endpoints at their {@code .php} paths and the JWKS; the code flow, refresh tokens, the device grant, the client
 * credentials of game servers and the token exchange of their tickets;
 * {@code client_secret_basic}, {@code client_secret_post} and {@code none} (native and device applications);
 * PKCE with {@code S256}; RS256 id_tokens with the claims they can carry; the authorization request's
 * parameters ({@code prompt}, {@code display}, {@code claims}, {@code acr_values}) and, as {@code false},
 * request objects; pushed authorization requests (not required) and the algorithms of DPoP proofs (decisions §28).
 * Spring Authorization Server's other defaults (mTLS, dynamic registration) are not served here and therefore not
 * announced. DiscoveryAndKeysIT checks the whole
 * set of members and that every announced endpoint answers.
 */
public class DiscoveryDocument implements Consumer<OidcProviderConfiguration.Builder> {

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
                    "scopes_supported", List.of("openid", "email", "profile", "offline_access"),
                    "response_types_supported", List.of("code"),
                    "response_modes_supported", List.of("query"),
                    // client_credentials: servidor applications only (decisions §21); token exchange: the tickets
                    // for game servers, asked for by the other types (§25)
                    "grant_types_supported", List.of("authorization_code", "refresh_token",
                            DeviceCodeRequests.GRANT_TYPE, "client_credentials", TicketRequests.GRANT_TYPE),
                    "subject_types_supported", List.of("public"),
                    "id_token_signing_alg_values_supported", List.of("RS256")));
            // "none": native and device applications are public clients (decisions §16)
            claims.put("token_endpoint_auth_methods_supported", List.of("client_secret_basic", "client_secret_post", "none"));
            claims.put("device_authorization_endpoint", issuer + Endpoints.DEVICE);
            claims.put("code_challenge_methods_supported", List.of("S256"));
            // RP-initiated logout (LogoutEndpoint), at the issuer like the other endpoints
            claims.put("end_session_endpoint", issuer + Endpoints.LOGOUT);
            // Back-Channel Logout 1.0 (backchannel/): logout tokens carry sid, and id_tokens too
            claims.put("backchannel_logout_supported", true);
            claims.put("backchannel_logout_session_supported", true);
            claims.put("userinfo_endpoint", issuer + Endpoints.USERINFO);
            claims.put("revocation_endpoint", issuer + Endpoints.REVOKE);
            claims.put("revocation_endpoint_auth_methods_supported",
                    List.of("client_secret_basic", "client_secret_post", "none"));
            claims.put("introspection_endpoint", issuer + Endpoints.INTROSPECT);
            claims.put("introspection_endpoint_auth_methods_supported",
                    List.of("client_secret_basic", "client_secret_post"));
            claims.put("claims_supported",
                    List.of("iss", "aud", "sub", "exp", "iat", "auth_time", "nonce", "azp", "amr", "acr", "email",
                            "email_verified", "name", "given_name", "sid", "invitado", "menor", "consentimiento_parental"));
            // the authorization request's parameters (decisions §12.2, AuthenticationRequestFilter)
            claims.put("prompt_values_supported", List.of("none", "login", "consent"));
            claims.put("display_values_supported", List.of("page", "popup"));
            // the pages' languages (decisions §22): ui_locales picks one of them (web/Languages)
            claims.put("ui_locales_supported", List.of("es", "en"));
            claims.put("claims_parameter_supported", true);
            claims.put("acr_values_supported", List.of(AuthenticationRequestFilter.MFA));
            claims.put("request_parameter_supported", false);
            claims.put("request_uri_parameter_supported", false);
            // decisions §28: pushed authorization requests (RFC 9126 §5), required only by the applications that
            // say so (par_obligatorio), and DPoP proofs (RFC 9449 §5.1) at the token endpoint and the resources
            claims.put("pushed_authorization_request_endpoint", issuer + Endpoints.PAR);
            claims.put("require_pushed_authorization_requests", false);
            claims.put("dpop_signing_alg_values_supported", DPoPProofs.ALGORITHMS);
        });
    }
}
