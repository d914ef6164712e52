package com.example.identity.oauth.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.server.authorization.oidc.OidcProviderConfiguration;

import com.example.identity.oidc.RequestedClaims;

/** The discovery document announces what this server does and nothing of Spring Authorization Server's other defaults. */
class DiscoveryDocumentTest {

    static final String ISSUER = "https://id.example.com";

    static Map<String, Object> document() {
        OidcProviderConfiguration.Builder builder = OidcProviderConfiguration.builder()
                .issuer(ISSUER)
                .authorizationEndpoint(ISSUER + "/oauth/authorize.php")
                .tokenEndpoint(ISSUER + "/oauth/token.php")
                .jwkSetUrl(ISSUER + "/oauth/jwks.php")
                .pushedAuthorizationRequestEndpoint(ISSUER + "/oauth2/par")
                .clientRegistrationEndpoint(ISSUER + "/connect/register")
                .dPoPSigningAlgorithm("ES256")
                .tlsClientCertificateBoundAccessTokens(true)
                .responseType("code")
                .subjectType("public")
                .idTokenSigningAlgorithm("RS256");
        new DiscoveryDocument().accept(builder);
        return builder.build().getClaims();
    }

    @Test
    void theEndpointsAreTheIssuersPhpPaths() {
        Map<String, Object> document = document();
        assertThat(document).containsEntry("issuer", ISSUER)
                .containsEntry("authorization_endpoint", ISSUER + "/oauth/authorize.php")
                .containsEntry("token_endpoint", ISSUER + "/oauth/token.php")
                .containsEntry("userinfo_endpoint", ISSUER + "/oauth/userinfo.php")
                .containsEntry("revocation_endpoint", ISSUER + "/oauth/revoke.php")
                .containsEntry("introspection_endpoint", ISSUER + "/oauth/introspect.php")
                .containsEntry("device_authorization_endpoint", ISSUER + "/oauth/device.php")
                .containsEntry("end_session_endpoint", ISSUER + "/oauth/logout.php");
        assertThat(String.valueOf(document.get("jwks_uri"))).isEqualTo(ISSUER + "/oauth/jwks.php");
    }

    @Test
    void defaultsThisServerDoesNotServeAreNotAnnounced() {
        assertThat(document()).doesNotContainKeys("registration_endpoint", "tls_client_certificate_bound_access_tokens",
                "mtls_endpoint_aliases", "backchannel_authentication_endpoint");
    }

    /** Decisions §28: pushed authorization requests (not required) and the algorithms of DPoP proofs. */
    @Test
    void pushedRequestsAndDPoPAreAnnounced() {
        assertThat(document()).containsEntry("pushed_authorization_request_endpoint", ISSUER + "/oauth/par.php")
                .containsEntry("require_pushed_authorization_requests", false)
                .containsEntry("dpop_signing_alg_values_supported", List.of("RS256", "RS384", "RS512", "PS256", "PS384",
                        "PS512", "ES256", "ES384", "ES512"));
    }

    @Test
    void theFlowsMethodsAndParametersAreExactlyThoseServed() {
        Map<String, Object> document = document();
        assertThat(document).containsEntry("response_types_supported", List.of("code"))
                .containsEntry("response_modes_supported", List.of("query"))
                .containsEntry("grant_types_supported", List.of("authorization_code", "refresh_token",
                        "urn:ietf:params:oauth:grant-type:device_code", "client_credentials",
                        "urn:ietf:params:oauth:grant-type:token-exchange"))
                .containsEntry("code_challenge_methods_supported", List.of("S256"))
                .containsEntry("token_endpoint_auth_methods_supported",
                        List.of("client_secret_basic", "client_secret_post", "none"))
                .containsEntry("introspection_endpoint_auth_methods_supported",
                        List.of("client_secret_basic", "client_secret_post"))
                .containsEntry("scopes_supported", List.of("openid", "email", "profile", "offline_access"))
                .containsEntry("id_token_signing_alg_values_supported", List.of("RS256"))
                .containsEntry("prompt_values_supported", List.of("none", "login", "consent"))
                .containsEntry("acr_values_supported", List.of("mfa"))
                .containsEntry("claims_parameter_supported", true)
                .containsEntry("request_parameter_supported", false)
                .containsEntry("request_uri_parameter_supported", false);
    }

    @Test
    void everyUserClaimThatCanBeAskedForIsAnnounced() {
        @SuppressWarnings("unchecked")
        List<String> announced = (List<String>) document().get("claims_supported");
        assertThat(announced).containsAll(RequestedClaims.KNOWN).contains("sub", "auth_time", "amr", "acr", "nonce");
    }
}
