package com.example.identity.oauth.revocation;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenIntrospection;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenIntrospectionAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;

import com.example.identity.account.AccountService;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.token.RefreshTokens;
import com.example.identity.apitoken.ApiTokenValidator;
import com.example.identity.apitoken.ApiTokenValidator.TokenCheck;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.apitoken.TokenOwner;

/**
 * {@code POST /oauth/introspect.php} (RFC 7662, decisions §12.3), plugged into Spring Authorization
 * Server's introspection endpoint as its provider, after the client authenticated. Any application with
 * credentials may introspect an access token issued to any application (a game's back end validates its
 * players' tokens this way): the same cached check as {@code /api/userinfo.php}. A refresh token is
 * introspected only by the application it was issued to (it is that application's credential). Everything
 * else is {@code {"active":false}} (RFC 7662 §2.2): unknown, expired or revoked tokens, of disabled accounts
 * or revoked applications, another application's refresh token, and personal API tokens (they belong to a
 * developer, not to an OAuth grant, and are no application's business).
 *
 * <p>A {@code servidor} application (decisions §21), whether it authenticates with its secret or with its own
 * access token ({@code token/BearerClientAuthentication}), sees the tokens issued to its owner's applications
 * only: a game's back end validates its own game's players, not another developer's. A server's own token is
 * introspected like any access token (no {@code sub}: it speaks for no user).
 */
public final class TokenIntrospection implements AuthenticationProvider {

    private final ApiTokenValidator accessTokens;
    private final RegisteredClientRepository clients;
    private final RefreshTokens refreshTokens;
    private final AccountService accounts;
    private final String issuer;
    private final Clock clock;

    public TokenIntrospection(ApiTokenValidator accessTokens, RegisteredClientRepository clients,
            RefreshTokens refreshTokens, AccountService accounts, String issuer, Clock clock) {
        this.accessTokens = accessTokens;
        this.clients = clients;
        this.refreshTokens = refreshTokens;
        this.accounts = accounts;
        this.issuer = issuer;
        this.clock = clock;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var request = (OAuth2TokenIntrospectionAuthenticationToken) authentication;
        var clientPrincipal = (OAuth2ClientAuthenticationToken) request.getPrincipal();
        RegisteredClient client = clientPrincipal.getRegisteredClient();
        if (DatabaseRegisteredClientRepository.isRevoked(client)) {
            throw StandardError.invalidClient("La aplicacion esta revocada");
        }
        String token = request.getToken();
        OAuth2TokenIntrospection claims = RefreshTokens.isWellFormed(token)
                ? refreshToken(token, client.getClientId())
                : accessToken(token, DatabaseRegisteredClientRepository.isServer(client)
                        ? DatabaseRegisteredClientRepository.ownerOf(client) : null);
        return new OAuth2TokenIntrospectionAuthenticationToken(token, clientPrincipal, claims);
    }

    /** An access token; {@code onlyOfOwner}, for a server, the account whose applications' tokens it may see. */
    private OAuth2TokenIntrospection accessToken(String token, @Nullable Long onlyOfOwner) {
        TokenCheck check = accessTokens.check(token);
        TokenOwner owner = check.owner();
        if (owner == null || owner.kind() == TokenKind.PERSONAL
                || (onlyOfOwner != null && !onlyOfOwner.equals(ownerOfClient(owner.clientId())))) {
            return OAuth2TokenIntrospection.builder(false).build();
        }
        var claims = OAuth2TokenIntrospection.builder(true)
                .scope(String.join(" ", owner.scopes()))
                .clientId(owner.clientId())
                .tokenType(owner.isSenderConstrained() ? "DPoP" : "Bearer")
                .audience(owner.clientId())
                .issuer(issuer);
        if (owner.isSenderConstrained()) {
            // RFC 9449 §6.2: the key the token is bound to, so that a resource server can check the proof itself
            claims.claim("cnf", Map.of("jkt", owner.dpopJkt()));
        }
        if (owner.kind() == TokenKind.OAUTH) {
            claims.subject("user:" + owner.userId());
        }
        if (check.issuedAt() != null) {
            claims.issuedAt(check.issuedAt());
        }
        if (check.expiresAt() != null) {
            claims.expiresAt(check.expiresAt());
        }
        return claims.build();
    }

    private @Nullable Long ownerOfClient(@Nullable String clientId) {
        RegisteredClient client = clientId == null ? null : clients.findByClientId(clientId);
        return client == null ? null : DatabaseRegisteredClientRepository.ownerOf(client);
    }

    private OAuth2TokenIntrospection refreshToken(String token, String clientId) {
        Instant now = clock.instant();
        return refreshTokens.find(token)
                .filter(r -> r.clientId().equals(clientId))
                .filter(r -> !r.isRevoked() && !r.isRotated() && !r.isExpiredAt(now))
                .filter(r -> accounts.findById(r.userId()).filter(u -> u.isEnabled()).isPresent())
                .map(r -> OAuth2TokenIntrospection.builder(true)
                        .scope(String.join(" ", r.scopes()))
                        .clientId(r.clientId())
                        .subject("user:" + r.userId())
                        .audience(r.clientId())
                        .issuer(issuer)
                        .issuedAt(r.createdAt())
                        .expiresAt(r.expiresAt())
                        .build())
                .orElseGet(() -> OAuth2TokenIntrospection.builder(false).build());
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2TokenIntrospectionAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
