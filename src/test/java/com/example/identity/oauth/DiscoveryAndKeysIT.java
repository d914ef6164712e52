package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

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
        assertThat(strings(doc, "scopes_supported")).containsExactly("openid", "email", "profile");
        assertThat(strings(doc, "response_types_supported")).containsExactly("code");
        assertThat(strings(doc, "grant_types_supported")).containsExactly("authorization_code");
        assertThat(strings(doc, "subject_types_supported")).containsExactly("public");
        assertThat(strings(doc, "id_token_signing_alg_values_supported")).containsExactly("RS256");
        assertThat(strings(doc, "token_endpoint_auth_methods_supported"))
                .containsExactly("client_secret_basic", "client_secret_post");
        assertThat(strings(doc, "code_challenge_methods_supported")).containsExactly("S256");
        assertThat(strings(doc, "claims_supported"))
                .contains("iss", "aud", "sub", "exp", "iat", "auth_time", "nonce", "email", "name");
        assertThat(doc.get("end_session_endpoint").asString()).isEqualTo(ISSUER + "/oauth/logout.php");
        assertThat(doc.propertyNames()).doesNotContain("userinfo_endpoint", "revocation_endpoint",
                "introspection_endpoint", "device_authorization_endpoint");
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
}
