package com.example.identity.oauth.authorize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationContext;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationException;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;

import com.example.identity.client.DatabaseRegisteredClientRepository;

/** An authorization request's redirect URI, client state and sizes, checked before the user is asked to log in. */
class AuthorizeRequestChecksTest {

    static final String REDIRECT = "https://juego.example/callback";
    static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    static RegisteredClient client(boolean revoked) {
        return RegisteredClient.withId("juego").clientId("juego").clientSecret("{noop}x")
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUri(REDIRECT).scope("openid").scope("email")
                .clientSettings(ClientSettings.builder().setting(DatabaseRegisteredClientRepository.REVOKED, revoked).build())
                .build();
    }

    static OAuth2AuthorizationCodeRequestAuthenticationToken request(String redirectUri, String state,
            Map<String, Object> extra, String... scopes) {
        return new OAuth2AuthorizationCodeRequestAuthenticationToken("https://id.example.com/oauth/authorize.php", "juego",
                new TestingAuthenticationToken("ana", null), redirectUri, state, Set.of(scopes), extra);
    }

    static void check(RegisteredClient client, OAuth2AuthorizationCodeRequestAuthenticationToken request) {
        new AuthorizeRequestChecks().accept(
                OAuth2AuthorizationCodeRequestAuthenticationContext.with(request).registeredClient(client).build());
    }

    static OAuth2AuthorizationCodeRequestAuthenticationException refusal(RegisteredClient client,
            OAuth2AuthorizationCodeRequestAuthenticationToken request) {
        return catchThrowableOfType(OAuth2AuthorizationCodeRequestAuthenticationException.class, () -> check(client, request));
    }

    @Test
    void aRequestWithTheRegisteredRedirectUriAndKnownScopesPasses() {
        assertThatCode(() -> check(client(false), request(REDIRECT, "s", Map.of("code_challenge", CHALLENGE), "openid", "email")))
                .doesNotThrowAnyException();
    }

    @Test
    void aMissingOrDifferentRedirectUriIsRefusedWithoutRedirecting() {
        for (String redirect : new String[] { null, REDIRECT + "/", "https://juego.example/callback?x=1",
                "HTTPS://juego.example/callback", "https://evil.example/callback" }) {
            var refused = refusal(client(false), request(redirect, "s", Map.of(), "openid"));
            assertThat(refused).as(redirect).isNotNull();
            assertThat(refused.getError().getErrorCode()).isEqualTo("invalid_request");
            assertThat(refused.getError().getDescription()).isEqualTo("OAuth 2.0 Parameter: redirect_uri");
            assertThat(refused.getAuthorizationCodeRequestAuthentication().getRedirectUri()).as("nowhere to send it").isNull();
        }
    }

    @Test
    void aRevokedClientIsRefusedWithoutRedirecting() {
        var refused = refusal(client(true), request(REDIRECT, "s", Map.of(), "openid"));
        assertThat(refused.getError().getErrorCode()).isEqualTo(AuthorizeRequestChecks.CLIENT_REVOKED);
        assertThat(refused.getError().getDescription()).isEqualTo("OAuth 2.0 Parameter: client_id");
        assertThat(refused.getAuthorizationCodeRequestAuthentication().getRedirectUri()).isNull();
    }

    @Test
    void aScopeTheClientDoesNotHaveIsRefusedBackToTheClient() {
        var refused = refusal(client(false), request(REDIRECT, "s", Map.of(), "openid", "profile"));
        assertThat(refused.getError().getErrorCode()).isEqualTo("invalid_scope");
        assertThat(refused.getAuthorizationCodeRequestAuthentication().getRedirectUri()).isEqualTo(REDIRECT);
    }

    @Test
    void stateNonceAndCodeChallengeAreBounded() {
        Map<String, Object> longNonce = new HashMap<>(Map.of("nonce", "n".repeat(AuthorizeRequestChecks.MAX_NONCE + 1)));
        Map<String, Object> okNonce = new HashMap<>(Map.of("nonce", "n".repeat(AuthorizeRequestChecks.MAX_NONCE)));
        assertThat(refusal(client(false), request(REDIRECT, "s".repeat(1025), Map.of(), "openid")).getError().getErrorCode())
                .isEqualTo("invalid_request");
        assertThatCode(() -> check(client(false), request(REDIRECT, "s".repeat(1024), okNonce, "openid")))
                .doesNotThrowAnyException();
        assertThat(refusal(client(false), request(REDIRECT, "s", longNonce, "openid")).getError().getDescription())
                .isEqualTo("OAuth 2.0 Parameter too long or malformed");
        for (String challenge : new String[] { CHALLENGE.substring(1), CHALLENGE + "=", "a".repeat(129), CHALLENGE.replace('-', '+') }) {
            assertThat(refusal(client(false), request(REDIRECT, "s", Map.of("code_challenge", challenge), "openid")))
                    .as(challenge).isNotNull();
        }
        assertThatCode(() -> check(client(false), request(REDIRECT, "s", Map.of("code_challenge", "a".repeat(128)), "openid")))
                .doesNotThrowAnyException();
    }
}
