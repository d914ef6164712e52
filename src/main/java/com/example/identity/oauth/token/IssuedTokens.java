package com.example.identity.oauth.token;

import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AccessTokenAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.token.DefaultOAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.error.TokenError;
import com.example.identity.oauth.error.TokenErrorException;

/**
 * What the three grants that issue a user's tokens (the code exchange, the refresh, the device poll), and the
 * guests' endpoint (oauth/guest/), share: their database work in one transaction whose unexpected failures become the token endpoint's
 * internal error, and the answer, with an {@code id_token} signed after the commit when {@code openid}
 * was granted.
 */
public final class IssuedTokens {

    private static final OAuth2TokenType ID_TOKEN = new OAuth2TokenType(OidcParameterNames.ID_TOKEN);

    private IssuedTokens() {
    }

    /**
     * Runs {@code work} in one transaction. The endpoint's own refusals ({@link StandardError},
     * {@link TokenErrorException}) pass through; anything else is {@link TokenError#internal}: a 500 in the
     * endpoint's shape that names only a request id.
     */
    public static <T> T inTransaction(TransactionTemplate transactions, TransactionCallback<T> work) {
        try {
            return transactions.execute(work);
        }
        catch (StandardError | TokenErrorException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw TokenError.internal(e);
        }
    }

    /**
     * The grant's answer: {@code accessToken}, {@code refreshToken} when there is one, and an
     * {@code id_token} generated from {@code context} when {@code authorizedScopes} hold {@code openid}.
     */
    public static OAuth2AccessTokenAuthenticationToken answer(OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator,
            DefaultOAuth2TokenContext.Builder context, Set<String> authorizedScopes, RegisteredClient client,
            OAuth2ClientAuthenticationToken clientPrincipal, OAuth2AccessToken accessToken,
            @Nullable OAuth2RefreshToken refreshToken) {
        Map<String, Object> extra = Map.of();
        if (authorizedScopes.contains(OidcScopes.OPENID)) {
            OAuth2Token idToken = tokenGenerator.generate(context.tokenType(ID_TOKEN).build());
            if (idToken == null) {
                throw TokenError.OIDC_KEY_MISSING.exception();
            }
            extra = Map.of(OidcParameterNames.ID_TOKEN, idToken.getTokenValue());
        }
        return new OAuth2AccessTokenAuthenticationToken(client, clientPrincipal, accessToken, refreshToken, extra);
    }
}
