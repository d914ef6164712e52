package com.example.identity.dpop;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import org.springframework.cache.Cache;
import org.springframework.cache.support.SimpleValueWrapper;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.security.oauth2.jwt.DPoPProofReplayValidator;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;

/**
 * The DPoP proofs already accepted (RFC 9449 §11.1), shared by every instance through the database: the store of
 * Spring Security's {@link DPoPProofReplayValidator}, which asks {@link #putIfAbsent} whether a proof's {@code jti}
 * is new once every other check of the proof has passed. Its own store, {@code DPoPProofReplayValidator.InMemoryCache},
 * remembers for one instance only, so a proof accepted on one instance could be replayed on another behind the same
 * load balancer (decisions §13); here "first use wins" is one INSERT against a primary key
 * ({@code dpop_proofs}, migration V89): a second one, on any instance, is refused.
 *
 * <p>The key is the SHA-256 of the proof key's thumbprint and the (already hashed) {@code jti}: two clients that
 * happened to pick the same {@code jti} do not refuse each other. A row is kept until its proof could no longer be
 * accepted anyway ({@code iat} + 60 s, the validator's {@code expiresAt}), then purged: every minute by each
 * instance ({@link #purgeExpired}, one DELETE of the rows of the minute before), and by the hourly retention job as
 * every feature's old rows ({@link Purge}).
 *
 * <p>The INSERT runs outside any transaction (its own commit): on PostgreSQL a refused INSERT would end the
 * caller's transaction, and a proof that was presented stays spent even when the request then fails.
 */
@Component
public class SeenProofs implements Cache, Purge {

    private final JdbcTemplate jdbc;
    private final Clock clock;

    SeenProofs(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Records a proof: null when it is new (and now recorded), the value back when it was seen before.
     *
     * @param key the validator's SHA-256 of the proof's {@code jti}
     * @param value the validator's {@link DPoPProofReplayValidator.CacheValue}: when the proof stops being
     *     acceptable, and the thumbprint of its key
     */
    @Override
    @Transactional(propagation = Propagation.NOT_SUPPORTED)
    public @Nullable ValueWrapper putIfAbsent(Object key, @Nullable Object value) {
        var proof = (DPoPProofReplayValidator.CacheValue) value;
        String digest = Secrets.sha256Hex(proof.getJwkThumbprint() + " " + key);
        try {
            jdbc.update("insert into dpop_proofs (proof_digest, expires_at) values (?, ?)", digest,
                    Timestamp.from(proof.getExpiresAt()));
            return null;
        }
        catch (DuplicateKeyException replayed) {
            return new SimpleValueWrapper(value);
        }
    }

    @Override
    public void put(Object key, @Nullable Object value) {
        putIfAbsent(key, value);
    }

    @Override
    public String getName() {
        return "dpop-proofs";
    }

    @Override
    public Object getNativeCache() {
        return jdbc;
    }

    /** Not asked by the validator: only {@link #putIfAbsent} decides. */
    @Override
    public @Nullable ValueWrapper get(Object key) {
        return null;
    }

    @Override
    public <T> @Nullable T get(Object key, @Nullable Class<T> type) {
        return null;
    }

    @Override
    public <T> T get(Object key, Callable<T> valueLoader) {
        throw new UnsupportedOperationException("DPoP proofs are recorded, never loaded");
    }

    /** A proof is never forgotten before its time: it could be replayed. */
    @Override
    public void evict(Object key) {
    }

    @Override
    public void clear() {
    }

    /** Each instance, every minute: the proofs that can no longer be accepted. Deleting twice is harmless. */
    @Scheduled(fixedDelayString = "PT1M", initialDelayString = "PT1M")
    void purgeExpired() {
        Instant now = clock.instant();
        purge(now, now);
    }

    @Override
    public Kind kind() {
        return Kind.SEEN_PROOFS;
    }

    /** Deletes the proofs whose acceptance ended before {@code cutoff} (now: the kind has no setting). */
    @Override
    @Transactional
    public int purge(Instant cutoff, Instant now) {
        return jdbc.update("delete from dpop_proofs where expires_at < ?", Timestamp.from(cutoff));
    }
}
