package com.example.identity.sanctions;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

import com.example.identity.common.CacheInvalidation;
import com.example.identity.common.LookupCache;

/**
 * Whether a person is sanctioned now (decisions §26): asked where a login or a grant is decided (the login paths,
 * {@code /activar}, the authorization endpoint, the refresh, device code and ticket grants). Each answer compares
 * the person's open sanctions with the clock at that moment, so a sanction ends at its {@code hasta} on every
 * instance by itself.
 *
 * <p>The open sanctions of each person asked about (most people: none) are cached, bounded in size and age: the
 * authorization endpoint and the ticket grant are hot paths, which read nothing once their caches are warm
 * (apitoken/QueryCountIT). A sanction placed or lifted evicts its person here at once and, through
 * {@link CacheInvalidation} (PostgreSQL NOTIFY at commit), on every other instance within a second; the
 * {@link #CACHE_TTL} is the backstop should a notification be lost. No cached entry outlives an end: the entry holds
 * the sanctions, not the answer, and the answer is computed with the time of the question.
 */
@Service
public class Sanctions {

    /** Topic of the cache in {@link CacheInvalidation}; keys are user ids. */
    static final String CACHE = "sanctions";
    /** How long another instance's change may take to be seen here if its notification were lost. */
    static final Duration CACHE_TTL = Duration.ofSeconds(30);

    private final SanctionStore store;
    private final Clock clock;
    private final CacheInvalidation invalidation;
    private final LookupCache<Long, List<Sanction>> open = new LookupCache<>(100_000, CACHE_TTL);

    Sanctions(SanctionStore store, Clock clock, CacheInvalidation invalidation) {
        this.store = store;
        this.clock = clock;
        this.invalidation = invalidation;
        invalidation.register(CACHE, key -> open.evictNow(Long.parseLong(key)), open::clear);
    }

    /** The sanction that keeps {@code userId} out of every application now (the longest of them), if any. */
    public Optional<Sanction> global(long userId) {
        return inForce(userId, null);
    }

    /**
     * What keeps {@code userId} out of {@code clientId} now: a global sanction (the longest), else the longest of
     * those in that application; with {@code clientId} null, a global one only.
     */
    public Optional<Sanction> inForce(long userId, @Nullable String clientId) {
        Instant now = clock.instant();
        Sanction global = null;
        Sanction here = null;
        for (Sanction s : openOf(userId)) {
            if (!s.inForceAt(now)) {
                continue;
            }
            if (s.isGlobal()) {
                global = global == null ? s : Sanction.longer(global, s);
            }
            else if (clientId != null && s.appliesTo(clientId)) {
                here = here == null ? s : Sanction.longer(here, s);
            }
        }
        return Optional.ofNullable(global != null ? global : here);
    }

    private List<Sanction> openOf(long userId) {
        List<Sanction> cached = open.getIfPresent(userId);
        if (cached != null) {
            return cached;
        }
        long generation = open.generation();
        List<Sanction> read = List.copyOf(store.open(userId, clock.instant()));
        // not when a sanction of anyone was placed or lifted while this was read: it may have missed it
        open.putUnlessEvictedSince(userId, read, generation);
        return read;
    }

    /**
     * When {@code sanction} ends, as the end of an OAuth {@code error_description} (ASCII: RFC 6749 §4.1.2.1, §5.2):
     * {@code " hasta 2027-01-07T12:00:00Z"}, or {@code " de forma permanente"}.
     */
    public static String until(Sanction sanction) {
        Instant hasta = sanction.hasta();
        return hasta == null ? " de forma permanente" : " hasta " + hasta.truncatedTo(ChronoUnit.SECONDS);
    }

    /** {@code userId}'s sanctions changed: looked up again here now and at commit, elsewhere at commit. */
    void changed(long userId) {
        invalidation.evict(CACHE, Long.toString(userId));
    }
}
