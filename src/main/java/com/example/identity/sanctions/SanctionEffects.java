package com.example.identity.sanctions;

import org.springframework.stereotype.Component;

import com.example.identity.account.SessionTerminator;

/**
 * What a sanction does once it is written (decisions §26), in the transaction that wrote it: the person's cached
 * sanctions are evicted here and on every other instance ({@link Sanctions}); the applications concerned are told
 * ({@link SanctionNotices}), first, while the grants that say which applications the person uses still stand; then
 * their tokens are revoked and their codes expired ({@link SanctionedGrants}), and a global sanction ends every
 * session of theirs on every instance ({@link SessionTerminator}). Its end (lifted, or its {@code hasta} passed) is
 * told to the same applications.
 */
@Component
class SanctionEffects {

    private final SanctionStore store;
    private final Sanctions sanctions;
    private final SanctionNotices notices;
    private final SanctionedGrants grants;
    private final SessionTerminator sessions;

    SanctionEffects(SanctionStore store, Sanctions sanctions, SanctionNotices notices, SanctionedGrants grants,
            SessionTerminator sessions) {
        this.store = store;
        this.sanctions = sanctions;
        this.notices = notices;
        this.grants = grants;
        this.sessions = sessions;
    }

    /** A sanction was placed; returns how many tokens it revoked. */
    int placed(Sanction sanction) {
        sanctions.changed(sanction.userId());
        store.setTold(sanction.id(), notices.placed(sanction));
        int revoked = grants.revoke(sanction.userId(), sanction.clientId());
        if (sanction.isGlobal()) {
            sessions.endAll(sanction.userId());
        }
        return revoked;
    }

    /** A sanction was lifted, or its end came: the applications told of it hear of its end. */
    void ended(Sanction sanction) {
        sanctions.changed(sanction.userId());
        notices.ended(sanction, store.told(sanction.id()));
    }
}
