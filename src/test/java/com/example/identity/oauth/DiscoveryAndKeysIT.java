package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import com.example.identity.support.WebClient;

class DiscoveryAndKeysIT extends OAuthTestBase {

    @Test
    void discoveryDocumentSaysExactlyWhatThisServerDoes() {
        var response = new WebClient(ISSUER).get("/.well-known/openid-configuration");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        JsonNode doc = json(response);
        assertThat(doc.get("issuer").asString()).isEqualTo(ISSUER);
        assertThat(doc.get("authorization_endpoint").asString()).isEqualTo(ISSUER + "/oauth/authorize.php");
        assertThat(doc.get("token_endpoint").asString()).isEqualTo(ISSUER + "/oauth/token.php");
        assertThat(doc.get("jwks_uri").asString()).isEqualTo(ISSUER + "/oauth/jwks.json");
        assertThat(strings(doc, "scopes_supported")).containsExactly("openid", "email", "profile", "offline_access");
        assertThat(strings(doc, "response_types_supported")).containsExactly("code");
        assertThat(strings(doc, "grant_types_supported")).containsExactly("authorization_code", "refresh_token",
                "urn:ietf:params:oauth:grant-type:device_code", "client_credentials",
                "urn:ietf:params:oauth:grant-type:token-exchange");
        assertThat(strings(doc, "subject_types_supported")).containsExactly("public");
        assertThat(strings(doc, "id_token_signing_alg_values_supported")).containsExactly("RS256");
        assertThat(strings(doc, "token_endpoint_auth_methods_supported"))
                .containsExactly("client_secret_basic", "client_secret_post", "none");
        assertThat(strings(doc, "code_challenge_methods_supported")).containsExactly("S256");
        assertThat(strings(doc, "claims_supported"))
                .contains("iss", "aud", "sub", "exp", "iat", "auth_time", "nonce", "email", "email_verified", "name",
                        "given_name");
        assertThat(doc.get("end_session_endpoint").asString()).isEqualTo(ISSUER + "/oauth/logout.php");
        assertThat(doc.get("userinfo_endpoint").asString()).isEqualTo(ISSUER + "/oauth/userinfo.php");
        assertThat(doc.get("revocation_endpoint").asString()).isEqualTo(ISSUER + "/oauth/revoke.php");
        assertThat(doc.get("introspection_endpoint").asString()).isEqualTo(ISSUER + "/oauth/introspect.php");
        assertThat(doc.get("device_authorization_endpoint").asString()).isEqualTo(ISSUER + "/oauth/device.php");
    }

    /** Nothing announced that is not served (decisions §12): the whole set of members, no more, no fewer. */
    @Test
    void discoveryDocumentHasExactlyTheseMembers() {
        JsonNode doc = json(new WebClient(ISSUER).get("/.well-known/openid-configuration"));

        assertThat(doc.propertyNames()).containsExactlyInAnyOrder(
                "issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "userinfo_endpoint",
                "revocation_endpoint", "introspection_endpoint", "end_session_endpoint",
                "device_authorization_endpoint", "scopes_supported", "response_types_supported",
                "response_modes_supported", "grant_types_supported", "subject_types_supported",
                "id_token_signing_alg_values_supported", "token_endpoint_auth_methods_supported",
                "revocation_endpoint_auth_methods_supported", "introspection_endpoint_auth_methods_supported",
                "code_challenge_methods_supported", "claims_supported", "prompt_values_supported",
                "display_values_supported", "ui_locales_supported", "claims_parameter_supported", "acr_values_supported",
                "request_parameter_supported", "request_uri_parameter_supported",
                "backchannel_logout_supported", "backchannel_logout_session_supported",
                "pushed_authorization_request_endpoint", "require_pushed_authorization_requests",
                "dpop_signing_alg_values_supported");
        assertThat(strings(doc, "response_modes_supported")).containsExactly("query");
        assertThat(strings(doc, "revocation_endpoint_auth_methods_supported"))
                .containsExactly("client_secret_basic", "client_secret_post", "none");
        assertThat(strings(doc, "introspection_endpoint_auth_methods_supported"))
                .containsExactly("client_secret_basic", "client_secret_post");
        assertThat(strings(doc, "claims_supported")).containsExactlyInAnyOrder("iss", "aud", "sub", "exp", "iat",
                "auth_time", "nonce", "azp", "amr", "acr", "email", "email_verified", "name", "given_name", "sid",
                "invitado", "menor", "consentimiento_parental");
        assertThat(strings(doc, "prompt_values_supported")).containsExactly("none", "login", "consent");
        assertThat(strings(doc, "display_values_supported")).containsExactly("page", "popup");
        assertThat(strings(doc, "ui_locales_supported")).containsExactly("es", "en");
        assertThat(strings(doc, "acr_values_supported")).containsExactly("mfa");
        assertThat(doc.get("claims_parameter_supported").asBoolean()).isTrue();
        assertThat(doc.get("request_parameter_supported").isBoolean()).isTrue();
        assertThat(doc.get("request_parameter_supported").asBoolean()).isFalse();
        assertThat(doc.get("request_uri_parameter_supported").isBoolean()).isTrue();
        assertThat(doc.get("request_uri_parameter_supported").asBoolean()).isFalse();
        // decisions §28
        assertThat(doc.get("pushed_authorization_request_endpoint").asString()).isEqualTo(ISSUER + "/oauth/par.php");
        assertThat(doc.get("require_pushed_authorization_requests").isBoolean()).isTrue();
        assertThat(doc.get("require_pushed_authorization_requests").asBoolean()).isFalse();
        assertThat(strings(doc, "dpop_signing_alg_values_supported")).containsExactly("RS256", "RS384", "RS512", "PS256",
                "PS384", "PS512", "ES256", "ES384", "ES512");
    }

    /**
     * Every announced endpoint is served at the announced address: a request without credentials gets that
     * endpoint's own answer (its error page or error code), never 404. The list of {@code *_endpoint}
     * members is read from the document, so an endpoint announced later without a line here fails.
     */
    @Test
    void everyAnnouncedEndpointIsServed() {
        var web = new WebClient(ISSUER);
        JsonNode doc = json(web.get("/.well-known/openid-configuration"));
        var announced = doc.propertyNames().stream().filter(name -> name.endsWith("_endpoint")).toList();
        assertThat(announced).containsExactlyInAnyOrder("authorization_endpoint", "token_endpoint",
                "userinfo_endpoint", "revocation_endpoint", "introspection_endpoint", "end_session_endpoint",
                "device_authorization_endpoint", "pushed_authorization_request_endpoint");

        for (String name : announced) {
            String url = doc.get(name).asString();
            assertThat(url).as(name).startsWith(ISSUER + "/");
            String path = url.substring(ISSUER.length());
            var answer = switch (name) {
                // no client_id: the Spanish error page, never a redirect
                case "authorization_endpoint" -> web.get(path);
                // no grant_type: the legacy Spanish error
                case "token_endpoint" -> web.postForm(path, java.util.Map.of());
                // no access token: RFC 6750 §3
                case "userinfo_endpoint" -> web.get(path);
                // no client authentication
                case "revocation_endpoint", "introspection_endpoint" -> web.postForm(path, java.util.Map.of("token", "x"));
                // a logged-in user, no id_token_hint: the Spanish confirmation page
                case "end_session_endpoint" -> newLoggedInUser("Lola").browser().get(path);
                // no client_id
                case "device_authorization_endpoint", "pushed_authorization_request_endpoint" ->
                        web.postForm(path, java.util.Map.of());
                default -> throw new AssertionError("announced but not checked: " + name);
            };
            // the endpoint's own answer, with a piece of its body that no 404 page has
            record Expected(int status, String body) {
            }
            Expected expected = switch (name) {
                case "authorization_endpoint" -> new Expected(400, "id=\"oauth-error\"");
                case "token_endpoint" -> new Expected(400, "{\"error\":\"grant_type inválido\"}");
                case "userinfo_endpoint" -> new Expected(401, "\"error\":\"invalid_token\"");
                case "revocation_endpoint", "introspection_endpoint", "device_authorization_endpoint",
                        "pushed_authorization_request_endpoint" -> new Expected(401, "\"error\":\"invalid_client\"");
                case "end_session_endpoint" -> new Expected(200, "¿Cerrar la sesión?");
                default -> throw new AssertionError(name);
            };
            assertThat(answer.statusCode()).as("%s %s: %s", name, path, answer.body()).isEqualTo(expected.status());
            assertThat(answer.body()).as("%s %s", name, path).contains(expected.body());
        }
        // and the JWKS that jwks_uri names
        var jwks = web.get(doc.get("jwks_uri").asString().substring(ISSUER.length()));
        assertThat(jwks.statusCode()).isEqualTo(200);
        assertThat(json(jwks).get("keys").isArray()).isTrue();
    }

    @Test
    void jwksPublishesThePublicSigningKeyOnly() {
        var response = new WebClient(ISSUER).get("/oauth/jwks.json");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json;charset=UTF-8");
        JsonNode keys = json(response).get("keys");
        assertThat(keys.size()).isGreaterThanOrEqualTo(1);
        JsonNode key = keys.get(0);
        assertThat(key.get("kty").asString()).isEqualTo("RSA");
        assertThat(key.get("alg").asString()).isEqualTo("RS256");
        assertThat(key.get("use").asString()).isEqualTo("sig");
        assertThat(key.get("kid").asString()).isNotBlank();
        assertThat(key.propertyNames()).doesNotContain("d", "p", "q", "dp", "dq", "qi");
    }

    private static List<String> strings(JsonNode doc, String name) {
        return doc.get(name).valueStream().map(JsonNode::asString).toList();
    }

    /**
     * The service signs id_tokens through its native RS256 provider (crypto/NativeRsaSignatures) where that
     * provider loads (Linux on x86-64), and the id_token verifies against the published key set.
     */
    @Test
    void idTokensAreSignedNativelyAndVerifyAgainstTheKeySet() throws Exception {
        if (System.getProperty("os.name").startsWith("Linux") && System.getProperty("os.arch").matches("amd64|x86_64")) {
            assertThat(java.security.Security.getProviders()[0].getName())
                    .isEqualTo(com.example.identity.crypto.NativeRsaSignatures.PROVIDER);
        }
        var client = newClient();
        var tokens = json(exchange(client, authorize(loggedInDeveloper(), client, "openid")));
        var idToken = com.nimbusds.jwt.SignedJWT.parse(tokens.get("id_token").asString());
        var keys = com.nimbusds.jose.jwk.JWKSet.parse(new WebClient(ISSUER).get("/oauth/jwks.json").body());
        var key = keys.getKeyByKeyId(idToken.getHeader().getKeyID()).toRSAKey().toRSAPublicKey();
        assertThat(idToken.verify(new com.nimbusds.jose.crypto.RSASSAVerifier(key))).isTrue();
    }
}
