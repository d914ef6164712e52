package com.example.identity.sanctions;

import org.jspecify.annotations.Nullable;

/**
 * What a sanction ends at once (decisions §26): the person's tokens. Implemented where the tokens live
 * ({@code oauth/token/SanctionedTokens}, which locks the refresh families first, as every change of a family does),
 * so that sanctions/ needs nothing of the authorization server.
 */
public interface SanctionedGrants {

    /**
     * In the placing transaction: revokes the access and refresh tokens of {@code userId} issued to {@code clientId},
     * or, when it is null, every token of theirs (their personal API tokens included, not the own tokens of their
     * {@code servidor} applications), and expires their authorization codes not yet exchanged.
     *
     * @return how many tokens were revoked
     */
    int revoke(long userId, @Nullable String clientId);
}
