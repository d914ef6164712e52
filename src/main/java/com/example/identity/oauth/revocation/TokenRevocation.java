package com.example.identity.oauth.revocation;

import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenRevocationAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;

import com.example.identity.audit.AuditEvent;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.token.RefreshTokenRecord;
import com.example.identity.oauth.token.RefreshTokens;
import com.example.identity.apitoken.ApiToken;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenKind;

/**
 * {@code POST /oauth/revoke.php} (RFC 7009, decisions §12.3), plugged into Spring Authorization Server's
 * revocation endpoint as its provider, after the client authenticated. The token's own format says which
 * kind it is (64 hex: an access token; 43 base64url: a refresh token), so {@code token_type_hint} is not
 * needed and an unknown hint is ignored (RFC 7009 §2.1). An application revokes only its own tokens: one
 * issued to another application, or a personal API token, is refused with {@code unauthorized_client}
 * (RFC 7009 §2.1: "the request is refused and the client is informed of the error"). An unknown token, or
 * one already revoked or expired, is answered 200 as the RFC asks (§2.2). Revoking a refresh token revokes
 * its family: every refresh and access token of that login (§2.1's SHOULD).
 */
public final class TokenRevocation implements AuthenticationProvider {

    static final String NOT_YOURS = "El token no pertenece a esta aplicacion";

    private final ApiTokenService accessTokens;
    private final RefreshTokens refreshTokens;
    private final ApplicationEventPublisher events;

    public TokenRevocation(ApiTokenService accessTokens, RefreshTokens refreshTokens, ApplicationEventPublisher events) {
        this.accessTokens = accessTokens;
        this.refreshTokens = refreshTokens;
        this.events = events;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var request = (OAuth2TokenRevocationAuthenticationToken) authentication;
        var clientPrincipal = (OAuth2ClientAuthenticationToken) request.getPrincipal();
        RegisteredClient client = clientPrincipal.getRegisteredClient();
        if (DatabaseRegisteredClientRepository.isRevoked(client)) {
            throw StandardError.invalidClient("La aplicacion esta revocada");
        }
        String clientId = client.getClientId();
        String token = request.getToken();
        if (RefreshTokens.isWellFormed(token)) {
            Optional<RefreshTokenRecord> record = refreshTokens.find(token);
            if (record.isPresent()) {
                if (!record.get().clientId().equals(clientId)) {
                    throw StandardError.unauthorizedClient(NOT_YOURS);
                }
                if (!record.get().isRevoked()) {
                    int revoked = refreshTokens.revokeFamily(record.get().authorizationId());
                    events.publishEvent(new AuditEvent(AuditEvent.Type.TOKEN_REVOKED_BY_CLIENT, "refresh token de "
                            + "usuario #" + record.get().userId() + ", autorización " + record.get().authorizationId()
                            + "; tokens revocados: " + revoked, clientId));
                }
            }
            return new OAuth2TokenRevocationAuthenticationToken(new OAuth2RefreshToken(token, null), clientPrincipal);
        }
        Optional<ApiToken> accessToken = accessTokens.findByValue(token);
        if (accessToken.isPresent()) {
            if (accessToken.get().getKind() != TokenKind.OAUTH || !clientId.equals(accessToken.get().getClientId())) {
                throw StandardError.unauthorizedClient(NOT_YOURS);
            }
            accessTokens.revokeForClient(accessToken.get().getId(), clientId);
        }
        return new OAuth2TokenRevocationAuthenticationToken(
                new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, token, null, null), clientPrincipal);
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2TokenRevocationAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
