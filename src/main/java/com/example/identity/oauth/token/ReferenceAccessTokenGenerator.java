package com.example.identity.oauth.token;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.settings.OAuth2TokenFormat;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.dpop.DPoPProofs;
import com.example.identity.oauth.store.DatabaseAuthorizationService;
import com.example.identity.apitoken.ApiTokenService;

/**
 * Access tokens of {@code /oauth/token.php} are API tokens (specification §2.5, decisions §5): 64 hex
 * characters from 32 random bytes, stored by the token service as kind {@code oauth} with the client, the
 * scopes, the authorization they came from and an expiry, so they work at {@code /api/userinfo.php}. When the grant
 * request carried a verified DPoP proof ({@link TokenRequestProofs}, in the context as Spring Authorization Server's
 * {@link OAuth2TokenContext#DPOP_PROOF_KEY}), the token is bound to the proof's key (its thumbprint stored with it,
 * RFC 9449 §6) and its type is {@code DPoP}; a game server's own token is never bound (decisions §28).
 */
public class ReferenceAccessTokenGenerator implements OAuth2TokenGenerator<OAuth2AccessToken> {

    private final ApiTokenService tokens;
    private final Clock clock;

    public ReferenceAccessTokenGenerator(ApiTokenService tokens, Clock clock) {
        this.tokens = tokens;
        this.clock = clock;
    }

    @Override
    public @Nullable OAuth2AccessToken generate(OAuth2TokenContext context) {
        if (!OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())
                || !OAuth2TokenFormat.REFERENCE.equals(context.getRegisteredClient().getTokenSettings().getAccessTokenFormat())) {
            return null;
        }
        if (AuthorizationGrantType.CLIENT_CREDENTIALS.equals(context.getAuthorizationGrantType())) {
            return serverToken(context);
        }
        if (context.getAuthorization() == null
                || !(context.getPrincipal().getPrincipal() instanceof AccountPrincipal user)) {
            return null;
        }
        Duration ttl = context.getRegisteredClient().getTokenSettings().getAccessTokenTimeToLive();
        Instant issuedAt = clock.instant();
        Set<String> userInfoClaims = context.getAuthorization().getAttribute(DatabaseAuthorizationService.USERINFO_CLAIMS);
        Jwt proof = context.get(OAuth2TokenContext.DPOP_PROOF_KEY);
        String jkt = proof == null ? null : DPoPProofs.thumbprint(proof);
        String value = tokens.issueForClient(user.id(), context.getRegisteredClient().getClientId(),
                context.getAuthorizedScopes(), context.getAuthorization().getId(),
                userInfoClaims == null ? Set.of() : userInfoClaims, jkt, ttl);
        return new OAuth2AccessToken(jkt == null ? OAuth2AccessToken.TokenType.BEARER : OAuth2AccessToken.TokenType.DPOP,
                value, issuedAt, issuedAt.plus(ttl), context.getAuthorizedScopes());
    }

    /** A {@code servidor} application's own token (decisions §21); no other type is given the grant. */
    private @Nullable OAuth2AccessToken serverToken(OAuth2TokenContext context) {
        RegisteredClient client = context.getRegisteredClient();
        if (!DatabaseRegisteredClientRepository.isServer(client)) {
            return null;
        }
        Duration ttl = client.getTokenSettings().getAccessTokenTimeToLive();
        Instant issuedAt = clock.instant();
        String value = tokens.issueForServer(DatabaseRegisteredClientRepository.ownerOf(client), client.getClientId(),
                context.getAuthorizedScopes(), ttl);
        return new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, value, issuedAt, issuedAt.plus(ttl),
                context.getAuthorizedScopes());
    }
}
