package com.example.identity.sanctions;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One sanction (decisions §26): {@code userId} kept out of application {@code clientId}, or of every application when
 * it is null, until {@code hasta} (null: for good), shown {@code motivo}. It is in force while it was not lifted and
 * its end has not come: a comparison with the time it is checked at, so it ends by itself on every instance without
 * any job or restart ({@link #inForceAt}).
 *
 * @param placedBy the account that placed it (an admin, or the application's owner; for a {@code servidor}
 *     application's token, its owner)
 * @param placedByClient the {@code servidor} application whose token placed it, or null
 * @param liftedAt when {@code levantar.php} (or the page) lifted it early, or null
 */
public record Sanction(long id, long userId, String motivo, @Nullable Instant hasta, @Nullable String clientId,
        long placedBy, @Nullable String placedByClient, Instant createdAt, @Nullable Instant liftedAt) {

    /** In every application. */
    public boolean isGlobal() {
        return clientId == null;
    }

    /** Until lifted, with no end of its own. */
    public boolean isPermanent() {
        return hasta == null;
    }

    /** Not lifted, and its end not come at {@code now}. */
    public boolean inForceAt(Instant now) {
        return liftedAt == null && (hasta == null || hasta.isAfter(now));
    }

    /** Whether it keeps its person out of {@code application} (a global one keeps them out of all). */
    public boolean appliesTo(@Nullable String application) {
        return clientId == null || clientId.equals(application);
    }

    /** Of two sanctions, the one that lasts longer (a permanent one outlasts any other). */
    static Sanction longer(Sanction a, Sanction b) {
        if (a.hasta == null) {
            return a;
        }
        if (b.hasta == null) {
            return b;
        }
        return b.hasta.isAfter(a.hasta) ? b : a;
    }
}
