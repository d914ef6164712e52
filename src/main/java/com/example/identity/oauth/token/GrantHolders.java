package com.example.identity.oauth.token;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.sanctions.Sanctions;

/**
 * Whom the refresh and device code grants issue tokens for: the account, read again and enabled, that no sanction
 * keeps out of the calling application (decisions §26, {@link SanctionCheck}); else {@code invalid_grant}.
 */
public final class GrantHolders {

    private final AccountService accounts;
    private final Sanctions sanctions;

    public GrantHolders(AccountService accounts, Sanctions sanctions) {
        this.accounts = accounts;
        this.sanctions = sanctions;
    }

    /**
     * The holder of a grant of {@code userId} to {@code clientId}.
     *
     * @param gone the description when the account is gone or disabled
     */
    AccountPrincipal of(long userId, String clientId, String gone) {
        AccountPrincipal user = accounts.findById(userId).filter(UserAccount::isEnabled).map(AccountPrincipal::of)
                .orElseThrow(() -> StandardError.invalidGrant(gone));
        SanctionCheck.check(sanctions, userId, clientId);
        return user;
    }
}
