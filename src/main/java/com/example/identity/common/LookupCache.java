package com.example.identity.common;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * A bounded, expiring copy of database lookups (the token and client caches of the hot paths) whose
 * evictions win over lookups that raced with them: a lookup that read the database while an eviction
 * ran does not put back what it read, and an eviction runs again when the evicting transaction
 * completes (see {@link AfterCommit}), so no request can cache a row that the transaction is changing.
 *
 * <p>Per instance: another instance's change is seen here within the time-to-live (several instances
 * share one database, issue 15; notifying them is that business). The same shape serves a
 * negative cache (what a lookup did not find), evicted when the thing comes to exist.
 *
 * @param <K> the lookup key
 * @param <V> the cached value
 */
public final class LookupCache<K, V> {

    private final Cache<K, V> cache;
    /** Counts evictions, so that a lookup that raced with one does not put back what it read. */
    private final AtomicLong evictions = new AtomicLong();

    public LookupCache(long maximumSize, Duration timeToLive) {
        this.cache = Caffeine.newBuilder().maximumSize(maximumSize).expireAfterWrite(timeToLive).build();
    }

    /** The cached value of {@code key}, else {@code loader}'s (kept unless an eviction ran meanwhile). */
    public @Nullable V get(K key, Function<K, @Nullable V> loader) {
        V cached = cache.getIfPresent(key);
        if (cached != null) {
            return cached;
        }
        long generationBefore = generation();
        V loaded = loader.apply(key);
        if (loaded != null) {
            putUnlessEvictedSince(key, loaded, generationBefore);
        }
        return loaded;
    }

    public @Nullable V getIfPresent(K key) {
        return cache.getIfPresent(key);
    }

    /** The eviction count: read it before a lookup, and hand it to {@link #putUnlessEvictedSince} after. */
    public long generation() {
        return evictions.get();
    }

    /** Keeps {@code value} unless an eviction ran since {@code generationBefore} was read (the lookup may have missed it). */
    public void putUnlessEvictedSince(K key, V value, long generationBefore) {
        if (evictions.get() == generationBefore) {
            cache.put(key, value);
        }
    }

    /** Forgets one entry now (an entry found stale, such as an expired token). */
    public void forget(K key) {
        cache.invalidate(key);
    }

    /** Forgets {@code key} now and again when the current transaction completes. */
    public void evict(K key) {
        AfterCommit.nowAndAfterCompletion(() -> {
            evictions.incrementAndGet();
            cache.invalidate(key);
        });
    }

    /** Forgets every value matching {@code which} now and again when the current transaction completes. */
    public void evictIf(Predicate<? super V> which) {
        AfterCommit.nowAndAfterCompletion(() -> {
            evictions.incrementAndGet();
            cache.asMap().values().removeIf(which);
        });
    }
}
