package com.example.identity.apitoken;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

import com.example.identity.account.AccountChanged;
import com.example.identity.account.ProfileChanged;
import com.example.identity.common.CacheInvalidation;
import com.example.identity.common.LookupCache;
import com.example.identity.common.SpaceSeparated;
import com.example.identity.crypto.Secrets;

/**
 * The hot path of API tokens: what a presented bearer token is ({@link #check}), for the API's bearer filter,
 * the UserInfo endpoint and introspection. Owns the caches that spare the database that question (valid
 * tokens by digest, and digests that matched no token) and keeps them coherent on every instance through
 * {@link CacheInvalidation}; stamps {@code last_used_at} at most once per token per minute. Tokens are made,
 * listed and revoked by {@link ApiTokenService}, which tells this class what it changes ({@link #evict},
 * {@link #forgetUnknown}, {@link #forgetAllUnknown}).
 */
@Service
public class ApiTokenValidator {

    /** {@code last_used_at} is written at most once per token per this window. */
    static final Duration LAST_USED_RESOLUTION = Duration.ofMinutes(1);
    /** How long another instance's revocation may take to be seen here. */
    static final Duration CACHE_TTL = Duration.ofSeconds(30);
    static final int MAX_UNKNOWN = 10_000;
    static final Duration UNKNOWN_TTL = Duration.ofMinutes(10);
    /** Topic of the token cache in {@link CacheInvalidation}; keys are {@code id=}, {@code user=}, {@code client=}, {@code auth=}. */
    static final String CACHE = "api-tokens";
    /** Topic of the negative cache {@link #unknown} in {@link CacheInvalidation}: any key empties it. */
    static final String UNKNOWN_CACHE = "api-tokens-unknown";

    private final ApiTokenRepository tokens;
    private final ValidationRows rows;
    private final Clock clock;
    /** Per token id, when this instance may next write {@code last_used_at}: spares the database repeat UPDATEs. */
    private final ConcurrentHashMap<Long, Instant> nextTouch = new ConcurrentHashMap<>();
    /**
     * Valid tokens by digest. Bounded in size and age: a revocation evicts at once here and, through
     * {@link CacheInvalidation} (PostgreSQL NOTIFY), on every other instance at commit; {@link #CACHE_TTL}
     * is the backstop.
     */
    private final LookupCache<String, Cached> valid = new LookupCache<>(100_000, CACHE_TTL);
    /** Tells every instance's {@link #valid} of a revocation ({@link #CACHE} is its topic). */
    private final CacheInvalidation invalidation;
    /**
     * Digests that matched no token, so that a caller repeating an unknown token costs no query. Bounded
     * in size ({@value #MAX_UNKNOWN} digests, about 2 MB; W-TinyLFU keeps the repeated ones) and age
     * ({@link #UNKNOWN_TTL}). Correct across instances too: a digest gets here only when someone presented
     * it before the token existed, which means guessing 256 random bits; this instance forgets it at once
     * when it mints that token ({@link #forgetUnknown}), another instance within {@link #UNKNOWN_TTL}. Not so
     * for tokens imported from the old system, whose values were in use before they were stored here: an
     * import that adds tokens empties it on every instance ({@link #forgetAllUnknown}).
     */
    private final LookupCache<String, Boolean> unknown = new LookupCache<>(MAX_UNKNOWN, UNKNOWN_TTL);

    private record Cached(TokenOwner owner, Instant issuedAt, Instant expiresAt, Instant lastUsedAt) {
    }

    ApiTokenValidator(ApiTokenRepository tokens, ValidationRows rows, Clock clock, CacheInvalidation invalidation) {
        this.tokens = tokens;
        this.rows = rows;
        this.clock = clock;
        this.invalidation = invalidation;
        invalidation.register(CACHE, this::evictLocally, valid::clear);
        invalidation.register(UNKNOWN_CACHE, key -> unknown.clear(), unknown::clear);
    }

    /** Evicts what a key of {@link #CACHE} names, on this instance (a change here, or a notification). */
    private void evictLocally(String key) {
        int eq = key.indexOf('=');
        String kind = key.substring(0, eq);
        String value = key.substring(eq + 1);
        Predicate<TokenOwner> which = switch (kind) {
            case "id" -> owner -> owner.tokenId() == Long.parseLong(value);
            case "user" -> owner -> owner.userId() == Long.parseLong(value);
            case "client" -> owner -> value.equals(owner.clientId());
            case "auth" -> owner -> value.equals(owner.authorizationId());
            default -> throw new IllegalArgumentException("unknown token cache key " + kind);
        };
        valid.evictNowIf(c -> which.test(c.owner()));
    }

    /**
     * The owner of a presented token when it is valid: a known digest, not revoked, not expired, an owner
     * whose account is enabled and, for a token issued to an OAuth client, a client that is not revoked.
     * See {@link #check}.
     */
    public Optional<TokenOwner> authenticate(String presentedToken) {
        return Optional.ofNullable(check(presentedToken).owner());
    }

    /**
     * What a presented token is: valid (with its owner), known but not valid (revoked, expired, of a
     * disabled owner, or issued to a revoked client: so a token minted by a code exchange that raced with
     * the client's revocation is refused too), or unknown (never issued, or malformed). The rate limits
     * tell the last two apart: only unknown tokens cost the caller's address anything.
     *
     * <p>This is the busiest path of the service. Anything that is not 64 lowercase hex characters is
     * unknown without touching the database. A valid token in the bounded cache costs one SHA-256 and a
     * map lookup; a miss one indexed query joining the owner and the client. An unknown digest is
     * remembered in a bounded negative cache, so repeating it costs no query either; known-invalid tokens
     * are not cached (they are rare and their state may change).
     */
    public TokenCheck check(String presentedToken) {
        if (!isWellFormed(presentedToken)) {
            return TokenCheck.UNKNOWN;
        }
        Instant now = clock.instant();
        String digest = Secrets.sha256Hex(presentedToken);
        Cached cached = valid.getIfPresent(digest);
        if (cached == null) {
            if (unknown.getIfPresent(digest) != null) {
                return TokenCheck.UNKNOWN;
            }
            long validGeneration = valid.generation();
            long unknownGeneration = unknown.generation();
            Optional<ValidationRows.Row> row = rows.find(digest);
            if (row.isEmpty()) {
                // not when a token was minted while this lookup ran: it may be this one
                unknown.putUnlessEvictedSince(digest, Boolean.TRUE, unknownGeneration);
                return TokenCheck.UNKNOWN;
            }
            cached = row
                    .filter(r -> r.times().revokedAt() == null)
                    .filter(r -> r.times().expiresAt() == null || r.times().expiresAt().isAfter(now))
                    .filter(r -> r.owner().enabled())
                    .filter(r -> r.clientRevokedAt() == null)
                    .map(ApiTokenValidator::cached)
                    .orElse(null);
            if (cached == null) {
                return TokenCheck.INVALID;
            }
            // not when a revocation ran while this row was read: it may have missed it
            valid.putUnlessEvictedSince(digest, cached, validGeneration);
        }
        if (cached.expiresAt() != null && !cached.expiresAt().isAfter(now)) {
            valid.forget(digest);
            return TokenCheck.INVALID;
        }
        recordUse(cached, now);
        return new TokenCheck(cached.owner(), true, cached.issuedAt(), cached.expiresAt());
    }

    private static Cached cached(ValidationRows.Row r) {
        var o = r.owner();
        return new Cached(new TokenOwner(r.tokenId(), o.userId(), o.primerNombre(), o.correo(), o.rol(), r.kind(),
                r.personalScope(), r.clientId(), SpaceSeparated.words(r.scopes()), r.authorizationId(),
                SpaceSeparated.words(r.userInfoClaims()), o.emailVerified(), r.dpopJkt()),
                r.times().createdAt(), r.times().expiresAt(), r.times().lastUsedAt());
    }

    /**
     * The answer of {@link #check}: {@code owner} when the token is valid; {@code known} when it exists
     * at all (valid, or revoked, expired, of a disabled owner or of a revoked client).
     */
    public record TokenCheck(@Nullable TokenOwner owner, boolean known, @Nullable Instant issuedAt,
            @Nullable Instant expiresAt) {

        static final TokenCheck UNKNOWN = new TokenCheck(null, false, null, null);
        static final TokenCheck INVALID = new TokenCheck(null, true, null, null);

        public boolean valid() {
            return owner != null;
        }
    }

    private void recordUse(Cached cached, Instant now) {
        long id = cached.owner().tokenId();
        Instant next = nextTouch.get(id);
        if (next != null && next.isAfter(now)) {
            return;
        }
        nextTouch.put(id, now.plus(LAST_USED_RESOLUTION));
        if (next == null && cached.lastUsedAt() != null && cached.lastUsedAt().isAfter(now.minus(LAST_USED_RESOLUTION))) {
            return; // written within the minute, by this instance before a restart or by another one
        }
        tokens.touch(id, now, now.minus(LAST_USED_RESOLUTION));
        if (nextTouch.size() > 100_000) {
            nextTouch.entrySet().removeIf(e -> e.getValue().isBefore(now));
        }
    }

    static boolean isWellFormed(String token) {
        if (token == null || token.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = token.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Forgets cached tokens that {@code key} names ({@code id=}, {@code user=}, {@code client=},
     * {@code auth=}), now and again once the current transaction commits, so that no request can put back
     * what a revocation is about to change.
     */
    void evict(String key) {
        invalidation.evict(CACHE, key); // here now and after the transaction; on other instances at commit
    }

    /**
     * A token with this digest is being minted: 256 random bits are never presented before they are shown,
     * so it cannot be in the negative cache; forgotten anyway, now and at commit, so that being unknown never
     * outlives creation.
     */
    void forgetUnknown(String digest) {
        unknown.evict(digest);
    }

    /**
     * Tokens were stored whose values were in use before: every instance forgets every unknown digest, here
     * now and after the transaction, elsewhere at commit.
     */
    void forgetAllUnknown() {
        invalidation.evict(UNKNOWN_CACHE, "all");
    }

    /** An account disabled or changed role: its tokens must be looked up again. */
    @EventListener
    void onAccountChanged(AccountChanged event) {
        evict("user=" + event.userId());
    }

    /** An account's name changed: its cached tokens carry the old one, on every instance. */
    @EventListener
    void onProfileChanged(ProfileChanged event) {
        evict("user=" + event.userId());
    }
}
