package com.example.identity.oauth.token;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.dpop.DPoPProofs;

/**
 * Refresh tokens of {@code /oauth/token.php} (decisions §12.4), stored by {@link RefreshTokens} in the
 * family of the authorization they come from. Issued when the granted scopes include
 * {@code offline_access} (OIDC Core §11), and always to a native or device application (decisions §16: a launcher
 * or a console keeps its player logged in); never otherwise. A public client's token is bound to the key of the
 * grant request's DPoP proof, when there is one (RFC 9449 §5, decisions §28): it is refreshed only with a proof of that
 * key. A confidential client's is not bound: its secret already ties it to the client (RFC 9449 §5).
 */
public final class RefreshTokenGenerator implements OAuth2TokenGenerator<OAuth2RefreshToken> {

    private final RefreshTokens refreshTokens;

    public RefreshTokenGenerator(RefreshTokens refreshTokens) {
        this.refreshTokens = refreshTokens;
    }

    @Override
    public @Nullable OAuth2RefreshToken generate(OAuth2TokenContext context) {
        if (!OAuth2TokenType.REFRESH_TOKEN.equals(context.getTokenType())
                || !issuesFor(context.getRegisteredClient(), context.getAuthorizedScopes())
                || context.getAuthorization() == null
                || !(context.getPrincipal().getPrincipal() instanceof AccountPrincipal user)) {
            return null;
        }
        RefreshTokens.Issued issued = refreshTokens.issue(context.getAuthorization().getId(),
                context.getRegisteredClient().getClientId(), user.id(), context.getAuthorizedScopes(),
                boundKey(context));
        return new OAuth2RefreshToken(issued.value(), issued.issuedAt(), issued.expiresAt());
    }

    /** Whether a grant of {@code scopes} to {@code client} brings a refresh token (given a user and an authorization). */
    static boolean issuesFor(RegisteredClient client, Set<String> scopes) {
        return scopes.contains(DatabaseRegisteredClientRepository.OFFLINE_ACCESS)
                || DatabaseRegisteredClientRepository.isPublic(client);
    }

    /** The thumbprint a public client's refresh token is bound to: its grant request's proof key, or none. */
    static @Nullable String boundKey(OAuth2TokenContext context) {
        Jwt proof = context.get(OAuth2TokenContext.DPOP_PROOF_KEY);
        return proof != null && DatabaseRegisteredClientRepository.isPublic(context.getRegisteredClient())
                ? DPoPProofs.thumbprint(proof) : null;
    }
}
