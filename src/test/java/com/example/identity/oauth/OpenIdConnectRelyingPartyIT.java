package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;

import org.junit.jupiter.api.Test;

import com.example.identity.account.Role;
import com.example.identity.support.WebClient;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.AuthenticationResponseParser;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;

/**
 * End to end with a certified relying-party library (Nimbus OAuth 2.0 SDK with OpenID Connect): nothing
 * but the discovery URL, the client id and the secret; the id_token is validated against the JWKS.
 */
class OpenIdConnectRelyingPartyIT extends OAuthTestBase {

    @Test
    void relyingPartyLogsUserInWithDiscoveryClientIdAndSecretOnly() throws Exception {
        var registered = newClient();
        var web = loggedIn(Role.USER, "Marta");

        // discovery
        OIDCProviderMetadata provider = OIDCProviderMetadata.resolve(new Issuer(ISSUER));
        assertThat(provider.getAuthorizationEndpointURI()).isEqualTo(URI.create(ISSUER + "/oauth/authorize.php"));
        assertThat(provider.getTokenEndpointURI()).isEqualTo(URI.create(ISSUER + "/oauth/token.php"));
        assertThat(provider.getJWKSetURI()).isEqualTo(URI.create(ISSUER + "/oauth/jwks.json"));

        // authorization request, in the user's browser session
        ClientID clientId = new ClientID(registered.clientId());
        State state = new State();
        Nonce nonce = new Nonce();
        CodeVerifier verifier = new CodeVerifier();
        var request = new AuthenticationRequest.Builder(new ResponseType("code"), new Scope("openid", "email", "profile"),
                clientId, URI.create(registered.redirectUri()))
                .endpointURI(provider.getAuthorizationEndpointURI())
                .state(state)
                .nonce(nonce)
                .codeChallenge(verifier, CodeChallengeMethod.S256)
                .build();
        var redirect = web.get(request.toURI().getRawPath() + "?" + request.toURI().getRawQuery());
        assertThat(redirect.statusCode()).isEqualTo(302);
        var authResponse = AuthenticationResponseParser.parse(URI.create(WebClient.location(redirect)));
        assertThat(authResponse.indicatesSuccess()).isTrue();
        assertThat(authResponse.getState()).isEqualTo(state);
        AuthorizationCode code = authResponse.toSuccessResponse().getAuthorizationCode();

        // token request with client_secret_basic, as the library does by default
        var tokenRequest = new TokenRequest(provider.getTokenEndpointURI(),
                new ClientSecretBasic(clientId, new Secret(registered.clientSecret())),
                new AuthorizationCodeGrant(code, URI.create(registered.redirectUri()), verifier));
        var tokenResponse = OIDCTokenResponseParser.parse(tokenRequest.toHTTPRequest().send());
        assertThat(tokenResponse.indicatesSuccess()).isTrue();
        var tokens = ((OIDCTokenResponse) tokenResponse).getOIDCTokens();

        // id_token validated against the JWKS: RS256, kid, iss, aud, exp, nonce
        var idToken = (SignedJWT) tokens.getIDToken();
        assertThat(idToken.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(idToken.getHeader().getKeyID()).isNotBlank();
        var validator = new IDTokenValidator(new Issuer(ISSUER), clientId, JWSAlgorithm.RS256,
                provider.getJWKSetURI().toURL());
        var claims = validator.validate(idToken, nonce);
        long userId = accounts.findByEmail(claims.getStringClaim("email")).orElseThrow().getId();
        assertThat(claims.getSubject().getValue()).isEqualTo("user:" + userId);
        assertThat(claims.getAudience()).extracting(Object::toString).containsExactly(registered.clientId());
        assertThat(claims.getStringClaim("name")).isEqualTo("Marta");
        assertThat(claims.getNonce()).isEqualTo(nonce);
        assertThat(claims.getAuthenticationTime()).isNotNull();
        assertThat(claims.getIssueTime()).isNotNull();
        assertThat(claims.getExpirationTime()).isAfter(claims.getIssueTime());

        // the library's UserInfo request, at the endpoint the discovery document names
        assertThat(provider.getUserInfoEndpointURI()).isEqualTo(URI.create(ISSUER + "/oauth/userinfo.php"));
        var userInfoResponse = com.nimbusds.openid.connect.sdk.UserInfoResponse.parse(
                new com.nimbusds.openid.connect.sdk.UserInfoRequest(provider.getUserInfoEndpointURI(),
                        tokens.getBearerAccessToken()).toHTTPRequest().send());
        assertThat(userInfoResponse.indicatesSuccess()).isTrue();
        var userInfo = userInfoResponse.toSuccessResponse().getUserInfo();
        assertThat(userInfo.getSubject()).isEqualTo(claims.getSubject());
        assertThat(userInfo.getEmailAddress()).isEqualTo(claims.getStringClaim("email"));
        assertThat(userInfo.getEmailVerified()).isFalse();
        assertThat(userInfo.getName()).isEqualTo("Marta");
        assertThat(userInfo.getGivenName()).isEqualTo("Marta");

        // the access token works at the games' endpoint
        var userinfo = TokenEndpointIT.userinfo(tokens.getAccessToken().getValue());
        assertThat(userinfo.statusCode()).isEqualTo(200);
        var user = json(userinfo).get("user");
        assertThat(user.get("id").asLong()).isEqualTo(userId);
        assertThat(user.get("primer_nombre").asString()).isEqualTo("Marta");
        assertThat(user.get("rol").asString()).isEqualTo("user");
    }

    /**
     * The rest of a relying party's life with the library alone: offline_access (approved on the consent
     * page), a refresh with rotation and a new id_token of the same user, UserInfo with the new token,
     * introspection and revocation (RFC 7662, RFC 7009) with the client's credentials, and RP-initiated
     * logout back to a registered address.
     */
    @Test
    void relyingPartyRefreshesIntrospectsRevokesAndLogsOutWithTheLibrary() throws Exception {
        long owner = accounts.findByEmail("dev@example.com").orElseThrow().getId();
        String loggedOut = "https://rp.example/adios/" + java.util.UUID.randomUUID();
        var registered = clients.register(owner, "RP", "https://rp.example/cb/" + java.util.UUID.randomUUID(),
                java.util.List.of(loggedOut));
        clients.setFirstParty(new com.example.identity.account.Caller(owner, true), registered.clientId(), true);
        User user = newLoggedInUser("Iratxe");
        OIDCProviderMetadata provider = OIDCProviderMetadata.resolve(new Issuer(ISSUER));
        ClientID clientId = new ClientID(registered.clientId());
        var credentials = new ClientSecretBasic(clientId, new Secret(registered.clientSecret()));
        var validator = new IDTokenValidator(new Issuer(ISSUER), clientId, JWSAlgorithm.RS256,
                provider.getJWKSetURI().toURL());

        // login with offline_access: the consent page is approved in the user's browser
        Nonce nonce = new Nonce();
        var request = new AuthenticationRequest.Builder(new ResponseType("code"),
                new Scope("openid", "email", "offline_access"), clientId, URI.create(registered.redirectUri()))
                .endpointURI(provider.getAuthorizationEndpointURI()).state(new State()).nonce(nonce).build();
        var redirect = approvingConsent(user.browser(),
                user.browser().get(request.toURI().getRawPath() + "?" + request.toURI().getRawQuery()));
        var code = AuthenticationResponseParser.parse(URI.create(WebClient.location(redirect))).toSuccessResponse()
                .getAuthorizationCode();
        var first = ((OIDCTokenResponse) OIDCTokenResponseParser.parse(new TokenRequest(provider.getTokenEndpointURI(),
                credentials, new AuthorizationCodeGrant(code, URI.create(registered.redirectUri()))).toHTTPRequest().send()))
                .getOIDCTokens();
        var subject = validator.validate(first.getIDToken(), nonce).getSubject();
        assertThat(first.getRefreshToken()).isNotNull();
        assertThat(provider.getGrantTypes()).contains(com.nimbusds.oauth2.sdk.GrantType.REFRESH_TOKEN);

        // refresh: new tokens, the same user
        var refreshed = OIDCTokenResponseParser.parse(new TokenRequest(provider.getTokenEndpointURI(), credentials,
                new com.nimbusds.oauth2.sdk.RefreshTokenGrant(first.getRefreshToken())).toHTTPRequest().send());
        assertThat(refreshed.indicatesSuccess()).isTrue();
        var second = ((OIDCTokenResponse) refreshed).getOIDCTokens();
        assertThat(second.getAccessToken()).isNotEqualTo(first.getAccessToken());
        assertThat(second.getRefreshToken()).isNotEqualTo(first.getRefreshToken());
        assertThat(validator.validate(second.getIDToken(), null).getSubject()).isEqualTo(subject);

        // UserInfo with the new access token
        var userInfo = com.nimbusds.openid.connect.sdk.UserInfoResponse.parse(new com.nimbusds.openid.connect.sdk.UserInfoRequest(
                provider.getUserInfoEndpointURI(), second.getBearerAccessToken()).toHTTPRequest().send());
        assertThat(userInfo.toSuccessResponse().getUserInfo().getSubject()).isEqualTo(subject);

        // introspection: active; revocation; introspection: inactive, and UserInfo refuses it
        var introspect = new com.nimbusds.oauth2.sdk.TokenIntrospectionRequest(provider.getIntrospectionEndpointURI(),
                credentials, second.getAccessToken());
        var active = com.nimbusds.oauth2.sdk.TokenIntrospectionResponse.parse(introspect.toHTTPRequest().send())
                .toSuccessResponse();
        assertThat(active.isActive()).isTrue();
        assertThat(active.getSubject()).isEqualTo(subject);
        assertThat(active.getClientID()).isEqualTo(clientId);
        var revocation = new com.nimbusds.oauth2.sdk.TokenRevocationRequest(provider.getRevocationEndpointURI(),
                credentials, second.getAccessToken()).toHTTPRequest().send();
        assertThat(revocation.getStatusCode()).isEqualTo(200);
        assertThat(com.nimbusds.oauth2.sdk.TokenIntrospectionResponse.parse(introspect.toHTTPRequest().send())
                .toSuccessResponse().isActive()).isFalse();
        assertThat(com.nimbusds.openid.connect.sdk.UserInfoResponse.parse(new com.nimbusds.openid.connect.sdk.UserInfoRequest(
                provider.getUserInfoEndpointURI(), second.getBearerAccessToken()).toHTTPRequest().send())
                .indicatesSuccess()).isFalse();

        // RP-initiated logout, in the user's browser, back to the registered address with the state
        State logoutState = new State();
        var logout = new com.nimbusds.openid.connect.sdk.LogoutRequest(provider.getEndSessionEndpointURI(),
                second.getIDToken(), URI.create(loggedOut), logoutState).toURI();
        var loggedOutResponse = user.browser().get(logout.getRawPath() + "?" + logout.getRawQuery());
        assertThat(loggedOutResponse.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(loggedOutResponse)).isEqualTo(loggedOut + "?state=" + logoutState.getValue());
        assertThat(WebClient.location(user.browser().get(request.toURI().getRawPath() + "?" + request.toURI().getRawQuery())))
                .as("the session is gone").contains("/login/");
    }

    @Test
    void idTokenWithoutEmailOrProfileScopeCarriesNeitherClaim() throws Exception {
        var registered = newClient();
        var web = loggedInDeveloper();
        String code = authorize(web, registered, "openid", java.util.Map.of("nonce", "n-42"));

        var response = exchange(registered, code);

        var jwt = SignedJWT.parse(json(response).get("id_token").asString());
        var claims = jwt.getJWTClaimsSet();
        assertThat(claims.getClaims()).doesNotContainKeys("email", "name");
        assertThat(claims.getStringClaim("nonce")).isEqualTo("n-42");
        assertThat(claims.getSubject()).startsWith("user:");
        assertThat(claims.getIssuer()).isEqualTo(ISSUER);
    }

    @Test
    void demoApplicationWorksWithClientSecretPost() throws Exception {
        var web = new WebClient(ISSUER);
        web.login("dev@example.com", "dev-demo-password");
        var redirect = web.get("/oauth/authorize.php?response_type=code&client_id=demo-app"
                + "&redirect_uri=http%3A%2F%2Flocalhost%3A9000%2Fcallback&scope=openid%20email%20profile&state=s&nonce=n");
        assertThat(WebClient.location(redirect)).startsWith("http://localhost:9000/callback?code=");
        var code = AuthenticationResponseParser.parse(URI.create(WebClient.location(redirect))).toSuccessResponse()
                .getAuthorizationCode();

        var tokenRequest = new TokenRequest(URI.create(ISSUER + "/oauth/token.php"),
                new ClientSecretPost(new ClientID("demo-app"), new Secret("demo-app-secret")),
                new AuthorizationCodeGrant(code, URI.create("http://localhost:9000/callback")));
        var tokenResponse = OIDCTokenResponseParser.parse(tokenRequest.toHTTPRequest().send());

        assertThat(tokenResponse.indicatesSuccess()).isTrue();
        var claims = ((OIDCTokenResponse) tokenResponse).getOIDCTokens().getIDToken().getJWTClaimsSet();
        assertThat(claims.getStringClaim("email")).isEqualTo("dev@example.com");
        assertThat(claims.getStringClaim("name")).isEqualTo("Diego");
    }
}
