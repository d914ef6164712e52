package com.example.identity.oauth.store;

import com.example.identity.account.AccountPrincipal;

/**
 * An authorization code's record and the account it was issued for (without its password hash), read
 * together at the code exchange ({@link CodeStatements#findWithOwner}).
 */
public record CodeAndOwner(AuthorizationRecord record, AccountPrincipal owner) {
}
