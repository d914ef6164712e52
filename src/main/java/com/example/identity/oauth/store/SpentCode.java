package com.example.identity.oauth.store;

/**
 * A code spent and forgotten: its authorization row was deleted by its exchange (decisions D48), and the access token
 * issued from it still names it ({@code api_tokens.authorization_id}, which is the code's digest). What a second use
 * of the code needs: whose tokens to revoke and what to record.
 */
public record SpentCode(String authorizationId, String clientId, long userId) {

    /** The same of a stored authorization (its code found used, or spent by a concurrent exchange). */
    public static SpentCode of(AuthorizationRecord record) {
        return new SpentCode(record.id(), record.clientId(), record.userId());
    }
}
