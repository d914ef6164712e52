package com.example.identity.consent;

/**
 * What a withdrawn consent ends: every token an application holds for the user. Implemented where the tokens
 * live ({@code oauth/token/RefreshTokens}, which locks the families first so that a refresh in flight finishes and
 * its new tokens are revoked too), so that consent/ needs nothing of the authorization server.
 */
public interface ConsentTokens {

    /**
     * Revokes every access and refresh token of {@code clientId} for {@code userId}.
     *
     * @return how many tokens were revoked, of both kinds
     */
    int revokeFamilies(String clientId, long userId);
}
