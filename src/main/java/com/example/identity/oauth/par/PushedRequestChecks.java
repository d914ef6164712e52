package com.example.identity.oauth.par;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.endpoint.PkceParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationContext;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2PushedAuthorizationRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;

import com.example.identity.oauth.authorize.AuthorizeRequestChecks;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.store.PushedRequests;
import com.example.identity.oauth.token.ClientCredentialsChecks;

/**
 * The steps of {@code /oauth/par.php} once its client authenticated and its request was read
 * ({@link PushedRequestConverter}), in order, each with its refusal (RFC 6749 §5.2's shape, Spanish description):
 * <ol>
 * <li>the client is not revoked ({@code invalid_client}, as at the other endpoints where a client authenticates);</li>
 * <li>the request's {@code client_id} is the authenticated client's (RFC 9126 §2.1: {@code invalid_request});</li>
 * <li>the client makes authorization requests at all ({@code web} and {@code nativa}: {@code unauthorized_client});</li>
 * <li>the authorization endpoint's own checks of the client's request ({@link AuthorizeRequestChecks}: the registered
 * redirect URI byte for byte, the scopes, the sizes of {@code state}, {@code nonce} and {@code code_challenge}) and
 * PKCE ({@code S256} only, required of a native application);</li>
 * <li>the request is stored ({@link PushedRequests#push}): a one-time {@code request_uri} for 60 s.</li>
 * </ol>
 * OpenID Connect's parameters ({@code prompt}, {@code max_age}, {@code claims}, ...) are checked where they act, at
 * the authorization endpoint, which takes the stored request as if the browser had brought it: every check of a
 * request sent there directly applies to it. Spring Authorization Server's own provider is not used: it keeps the
 * request as an authorization without a user and fixes its lifetime at 300 s ({@link PushedRequests} says why).
 */
final class PushedRequestChecks implements AuthenticationProvider {

    private final AuthorizeRequestChecks authorizeChecks;
    private final PushedRequests pushed;

    PushedRequestChecks(AuthorizeRequestChecks authorizeChecks, PushedRequests pushed) {
        this.authorizeChecks = authorizeChecks;
        this.pushed = pushed;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var request = (PushedRequest) authentication;
        var clientPrincipal = (OAuth2ClientAuthenticationToken) request.getPrincipal();
        RegisteredClient client = clientPrincipal.getRegisteredClient();
        ClientCredentialsChecks.revokedCheck(client);
        if (!client.getClientId().equals(request.getClientId())) {
            throw StandardError.invalidRequest("client_id no es el del cliente autenticado");
        }
        if (!client.getAuthorizationGrantTypes().contains(AuthorizationGrantType.AUTHORIZATION_CODE)) {
            throw StandardError.unauthorizedClient("Solo las aplicaciones de tipo web o nativa envian solicitudes de "
                    + "autorizacion");
        }
        authorizationEndpointChecks(request, client);
        PushedRequests.Pushed stored = pushed.push(client.getClientId(), request.parameters());
        return new OAuth2PushedAuthorizationRequestAuthenticationToken(request.getAuthorizationUri(),
                client.getClientId(), clientPrincipal, stored.requestUri(), stored.expiresAt(), request.getRedirectUri(),
                request.getState(), request.getScopes());
    }

    /** What the authorization endpoint checks of the client's request before anyone logs in. */
    private void authorizationEndpointChecks(PushedRequest request, RegisteredClient client) {
        try {
            // the request as the authorization endpoint's validators read it (Spring's own provider does the same)
            var asAuthorizationRequest = new OAuth2AuthorizationCodeRequestAuthenticationToken(
                    request.getAuthorizationUri(), request.getClientId(), (Authentication) request.getPrincipal(),
                    request.getRedirectUri(), request.getState(), request.getScopes(), request.getAdditionalParameters());
            authorizeChecks.accept(OAuth2AuthorizationCodeRequestAuthenticationContext.with(asAuthorizationRequest)
                    .registeredClient(client).build());
        }
        catch (OAuth2AuthenticationException e) {
            String description = e.getError().getDescription() == null ? "" : e.getError().getDescription();
            if (OAuth2ErrorCodes.INVALID_SCOPE.equals(e.getError().getErrorCode())) {
                throw StandardError.invalidScope("Alcance no admitido: openid, email, profile u offline_access");
            }
            if (description.endsWith("redirect_uri")) {
                throw StandardError.invalidRequest("redirect_uri no coincide con el registrado");
            }
            throw StandardError.invalidRequest("state, nonce o code_challenge demasiado largo o mal formado");
        }
        Object challenge = request.getAdditionalParameters().get(PkceParameterNames.CODE_CHALLENGE);
        Object method = request.getAdditionalParameters().get(PkceParameterNames.CODE_CHALLENGE_METHOD);
        if (challenge != null && !"S256".equals(method)) {
            throw StandardError.invalidRequest("code_challenge_method debe ser S256");
        }
        if (challenge == null && client.getClientSettings().isRequireProofKey()) {
            throw StandardError.invalidRequest("Falta code_challenge: una aplicacion nativa usa PKCE con S256");
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return PushedRequest.class.isAssignableFrom(authentication);
    }
}
