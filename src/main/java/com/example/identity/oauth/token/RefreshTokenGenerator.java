package com.example.identity.oauth.token;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.client.DatabaseRegisteredClientRepository;

/**
 * Refresh tokens of {@code /oauth/token.php} (decisions §12.4), stored by {@link RefreshTokens} in the
 * family of the authorization they come from. Issued when the granted scopes include
 * {@code offline_access} (OIDC Core §11), and always to a native or device application (decisions §16: a launcher
 * or a console keeps its player logged in); never otherwise.
 */
public final class RefreshTokenGenerator implements OAuth2TokenGenerator<OAuth2RefreshToken> {

    private final RefreshTokens refreshTokens;

    public RefreshTokenGenerator(RefreshTokens refreshTokens) {
        this.refreshTokens = refreshTokens;
    }

    @Override
    public @Nullable OAuth2RefreshToken generate(OAuth2TokenContext context) {
        if (!OAuth2TokenType.REFRESH_TOKEN.equals(context.getTokenType())
                || !(context.getAuthorizedScopes().contains(DatabaseRegisteredClientRepository.OFFLINE_ACCESS)
                        || DatabaseRegisteredClientRepository.isPublic(context.getRegisteredClient()))
                || context.getAuthorization() == null
                || !(context.getPrincipal().getPrincipal() instanceof AccountPrincipal user)) {
            return null;
        }
        RefreshTokens.Issued issued = refreshTokens.issue(context.getAuthorization().getId(),
                context.getRegisteredClient().getClientId(), user.id(), context.getAuthorizedScopes());
        return new OAuth2RefreshToken(issued.value(), issued.issuedAt(), issued.expiresAt());
    }
}
