package com.example.identity.minors;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.common.CacheInvalidation;
import com.example.identity.common.LookupCache;

/**
 * What the hot paths ask of a person's age and consent (decisions §27): the authorization endpoint, the grants, the
 * claims. Answered from a cache of each person's birth date and consent state (most people have neither: that is
 * cached too), evicted on every instance through {@link CacheInvalidation} when a consent changes; the age itself is
 * computed at each question from the date, so a birthday needs no eviction.
 */
@Component
public class Minors {

    /** Topic of the cache in {@link CacheInvalidation}; keys are user ids. */
    static final String CACHE = "minors";
    static final Duration CACHE_TTL = Duration.ofSeconds(30);

    /** A person's birth date and parental consent state ({@code pendiente}, {@code concedido}, {@code retirado}). */
    public record Status(@Nullable LocalDate birth, @Nullable String consent) {
        static final Status NONE = new Status(null, null);
    }

    private final JdbcTemplate jdbc;
    private final BirthDates birthDates;
    private final CacheInvalidation invalidation;
    private final LookupCache<Long, Status> statuses = new LookupCache<>(100_000, CACHE_TTL);

    Minors(JdbcTemplate jdbc, BirthDates birthDates, CacheInvalidation invalidation) {
        this.jdbc = jdbc;
        this.birthDates = birthDates;
        this.invalidation = invalidation;
        invalidation.register(CACHE, key -> statuses.evictNow(Long.parseLong(key)), statuses::clear);
    }

    /** {@code userId}'s birth date and consent state, from the cache. */
    public Status status(long userId) {
        Status cached = statuses.getIfPresent(userId);
        if (cached != null) {
            return cached;
        }
        long generation = statuses.generation();
        List<Status> read = jdbc.query("select b.fecha_nacimiento, (select c.estado from parental_consents c "
                + "where c.user_id = b.user_id) from birth_dates b where b.user_id = ?",
                (rows, n) -> new Status(rows.getObject(1, LocalDate.class), rows.getString(2)), userId);
        Status status = read.isEmpty() ? Status.NONE : read.get(0);
        statuses.putUnlessEvictedSince(userId, status, generation);
        return status;
    }

    /**
     * Whether {@code userId}'s applications must wait (decisions §27): the account was made under the consent age and
     * no parent has said yes ({@code pendiente}); a withdrawn consent disabled the account, which refuses everything.
     */
    public boolean awaitingConsent(long userId) {
        return ParentalConsents.PENDING.equals(status(userId).consent());
    }

    /** Whether {@code userId} is under 18 today ({@code menor}); no birth date is an adult. */
    public boolean isMinor(long userId) {
        return birthDates.isMinor(status(userId).birth());
    }

    /**
     * {@code consentimiento_parental} for {@code userId}: the consent state while they are under the consent age,
     * else null (an adult, a person over the age, or one whose date was never asked).
     */
    public @Nullable String parentalConsentClaim(long userId) {
        Status status = status(userId);
        if (!birthDates.needsConsent(status.birth())) {
            return null;
        }
        return status.consent();
    }

    /** {@code userId}'s consent changed: looked up again here now and at commit, elsewhere at commit. */
    void changed(long userId) {
        invalidation.evict(CACHE, Long.toString(userId));
    }
}
