package com.example.identity.oauth.token;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;
import com.example.identity.minors.Minors;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.sanctions.Sanctions;

/**
 * Whom the refresh and device code grants issue tokens for: the account, read again and enabled, that no sanction
 * keeps out of the calling application (decisions §26, {@link SanctionCheck}), and whose parent has allowed it if it
 * is a child's under the consent age (§27: a guest converted by a child keeps its progress, but its game's refresh
 * waits, D49); else {@code invalid_grant}.
 */
public final class GrantHolders {

    /** A child's account waiting for a parent's consent (decisions §27), as the description of {@code invalid_grant}. */
    static final String AWAITING_CONSENT = "La cuenta espera el consentimiento de su madre, padre o tutor";

    private final AccountService accounts;
    private final Sanctions sanctions;
    private final Minors minors;

    public GrantHolders(AccountService accounts, Sanctions sanctions, Minors minors) {
        this.accounts = accounts;
        this.sanctions = sanctions;
        this.minors = minors;
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
        if (minors.awaitingConsent(userId)) {
            throw StandardError.invalidGrant(AWAITING_CONSENT);
        }
        return user;
    }
}
