package com.example.identity.oauth.token;

import java.time.Clock;
import java.time.Instant;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.oauth.store.AuthorizationRecordRepository;
import com.example.identity.sanctions.SanctionedGrants;

/**
 * What a sanction ends (decisions §26, sanctions/): in one application, that application's access and refresh tokens
 * of the person ({@link RefreshTokens#revokeFamilies}: families locked first); in all, every family of the person
 * locked, then every token of theirs revoked (personal API tokens too, not their servers' own) and evicted on every
 * instance at commit. Either way their codes not yet exchanged expire at once, so an exchange after the sanction
 * answers the contract's {@code Código expirado} (the code grant itself, a hot path, checks no sanction: D47).
 */
@Component
class SanctionedTokens implements SanctionedGrants {

    private final RefreshTokens refreshTokens;
    private final RefreshTokenRepository records;
    private final AuthorizationRecordRepository families;
    private final ApiTokenService accessTokens;
    private final Clock clock;

    SanctionedTokens(RefreshTokens refreshTokens, RefreshTokenRepository records, AuthorizationRecordRepository families,
            ApiTokenService accessTokens, Clock clock) {
        this.refreshTokens = refreshTokens;
        this.records = records;
        this.families = families;
        this.accessTokens = accessTokens;
        this.clock = clock;
    }

    @Override
    @Transactional(propagation = Propagation.MANDATORY)
    public int revoke(long userId, @Nullable String clientId) {
        Instant now = clock.instant();
        if (clientId != null) {
            int revoked = refreshTokens.revokeFamilies(clientId, userId);
            families.expireCodesOfUserAt(userId, clientId, now);
            return revoked;
        }
        families.lockByUser(userId);
        int revoked = accessTokens.revokeAllOfUser(userId) + records.revokeByUser(userId, now);
        families.expireCodesOfUser(userId, now);
        return revoked;
    }
}
