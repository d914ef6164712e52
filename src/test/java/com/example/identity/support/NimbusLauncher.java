package com.example.identity.support;

import java.net.URI;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.PushedAuthorizationRequest;
import com.nimbusds.oauth2.sdk.PushedAuthorizationResponse;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.dpop.DPoPProofFactory;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;

/**
 * A Java game launcher with the Nimbus OAuth 2.0 SDK (the code of docs/dpop-and-par.md, run by
 * {@code oauth/PushedAuthorizationRequestIT}): a public client that pushes its authorization request
 * ({@link PushedAuthorizationRequest}, RFC 9126), logs in with PKCE, and binds its tokens to its own key: every token
 * request and every call with a token carries a new DPoP proof ({@link DefaultDPoPProofFactory}, RFC 9449).
 */
public final class NimbusLauncher {

    private final String issuer;
    private final ClientID clientId;
    private final URI redirectUri;
    /** Made once per installation and kept on the player's machine (only its public half ever leaves it). */
    private final ECKey key;
    private final DPoPProofFactory proofs;

    public NimbusLauncher(String issuer, String clientId, String redirectUri) throws Exception {
        this.issuer = issuer;
        this.clientId = new ClientID(clientId);
        this.redirectUri = URI.create(redirectUri);
        this.key = new ECKeyGenerator(Curve.P_256).generate();
        this.proofs = new DefaultDPoPProofFactory(key, JWSAlgorithm.ES256);
    }

    /** The key's thumbprint: what the service binds the launcher's tokens to. */
    public String thumbprint() throws Exception {
        return key.toPublicJWK().computeThumbprint().toString();
    }

    /**
     * Pushes the authorization request and returns the address to open in the browser: only {@code client_id} and the
     * one-time {@code request_uri} travel through it.
     */
    public URI push(CodeVerifier verifier, State state, Nonce nonce) throws Exception {
        AuthorizationRequest request = new AuthorizationRequest.Builder(ResponseType.CODE, clientId)
                .redirectionURI(redirectUri)
                .scope(new Scope("openid", "email", "profile"))
                .state(state)
                .customParameter("nonce", nonce.getValue())
                .codeChallenge(verifier, CodeChallengeMethod.S256)
                .build();
        HTTPResponse answer = new PushedAuthorizationRequest(URI.create(issuer + "/oauth/par.php"), request)
                .toHTTPRequest().send();
        PushedAuthorizationResponse pushed = PushedAuthorizationResponse.parse(answer);
        if (!pushed.indicatesSuccess()) {
            throw new IllegalStateException("PAR refused: " + pushed.toErrorResponse().getErrorObject());
        }
        return new AuthorizationRequest.Builder(pushed.toSuccessResponse().getRequestURI(), clientId)
                .endpointURI(URI.create(issuer + "/oauth/authorize.php"))
                .build()
                .toURI();
    }

    /** The code for tokens, with a proof of the key: the tokens are bound to it ({@code token_type} DPoP). */
    public Tokens exchange(String code, CodeVerifier verifier) throws Exception {
        return tokens(new TokenRequest(URI.create(issuer + "/oauth/token.php"), clientId,
                new AuthorizationCodeGrant(new AuthorizationCode(code), redirectUri, verifier)));
    }

    /** A refresh, with a proof of the same key (a public client's refresh token is bound to it). */
    public Tokens refresh(RefreshToken refreshToken) throws Exception {
        return tokens(new TokenRequest(URI.create(issuer + "/oauth/token.php"), clientId,
                new RefreshTokenGrant(refreshToken)));
    }

    private Tokens tokens(TokenRequest request) throws Exception {
        HTTPRequest http = request.toHTTPRequest();
        http.setDPoP(proofs.createDPoPJWT(http.getMethod().name(), http.getURI()));
        TokenResponse answer = TokenResponse.parse(http.send());
        if (!answer.indicatesSuccess()) {
            throw new IllegalStateException("token refused: " + answer.toErrorResponse().getErrorObject());
        }
        return answer.toSuccessResponse().getTokens();
    }

    /**
     * A call with the token: {@code Authorization: DPoP <token>} and a new proof of the key for this very request
     * (its method, its URL, the token's hash).
     */
    public HTTPResponse get(String path, DPoPAccessToken token) throws Exception {
        HTTPRequest http = new UserInfoRequest(URI.create(issuer + path), token).toHTTPRequest();
        http.setDPoP(proofs.createDPoPJWT("GET", http.getURI(), token));
        return http.send();
    }
}
