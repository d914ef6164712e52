package com.example.identity.oauth.token;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.IdentityProperties;
import com.example.identity.audit.AuditEvent;
import com.example.identity.client.ClientRevoked;
import com.example.identity.common.Purge;
import com.example.identity.consent.ConsentTokens;
import com.example.identity.crypto.Secrets;
import com.example.identity.guestaccount.Guests;
import com.example.identity.oauth.store.AuthorizationRecordRepository;
import com.example.identity.apitoken.ApiTokenService;

/**
 * The refresh tokens of decisions §12.4: made, found, rotated and revoked here. A token is 32
 * {@code SecureRandom} bytes as 43 base64url characters (so it is never mistaken for a 64-hex access
 * token); only its SHA-256 digest is stored. Tokens of one grant form a family, named by the authorization
 * they came from; revoking a family revokes its refresh tokens and its access tokens (RFC 9700 §4.14,
 * RFC 7009 §2.1).
 *
 * <p>Every change to a family's tokens first locks the family's {@code oauth_authorizations} row, and
 * only then touches token rows (one lock order, so nothing deadlocks): a rotation (before its conditional
 * UPDATE, {@link RefreshTokenExchange}), a revocation of the family (a replayed refresh token, a reused code,
 * RFC 7009), a consent withdrawal and a client revocation (every family concerned, in id order). The code
 * exchange locks that row by marking the code used. So a revocation and a rotation of one family never
 * overlap: under READ COMMITTED a revocation that ran beside a rotation would not see the rotation's new,
 * uncommitted tokens and would leave them alive; with the lock it waits, and then revokes them too.
 */
@Component
public class RefreshTokens implements Purge, ConsentTokens {

    /** 43 base64url characters: what {@link #issue} makes; anything else is not looked up. */
    private static final Pattern FORMAT = Pattern.compile("[A-Za-z0-9_-]{43}");

    private final RefreshTokenRepository records;
    private final AuthorizationRecordRepository families;
    private final ApiTokenService accessTokens;
    private final Clock clock;
    private final Duration ttl;
    private final ApplicationEventPublisher events;
    private final Guests guests;

    RefreshTokens(RefreshTokenRepository records, AuthorizationRecordRepository families, ApiTokenService accessTokens,
            Clock clock, IdentityProperties properties, ApplicationEventPublisher events, Guests guests) {
        this.guests = guests;
        this.records = records;
        this.families = families;
        this.accessTokens = accessTokens;
        this.clock = clock;
        this.ttl = properties.refreshToken().ttl();
        this.events = events;
    }

    /**
     * A guest player refreshed its tokens (decisions §24): its last use (guestaccount/Guests#used), after the refresh's
     * commit, in a transaction of its own, outside the family's lock.
     */
    void guestRefreshed(long userId) {
        guests.used(userId);
    }

    /**
     * A new token of family {@code authorizationId}; {@code value} is shown once, in the token response. Bound to the
     * DPoP key of thumbprint {@code dpopJkt} when one is given (a public client's, decisions §28).
     */
    @Transactional
    Issued issue(String authorizationId, String clientId, long userId, Set<String> scopes, @Nullable String dpopJkt) {
        String value = Secrets.randomUrlSafe(32);
        Instant now = clock.instant();
        records.save(new RefreshTokenRecord(Secrets.sha256Hex(value), authorizationId, clientId, userId, scopes,
                dpopJkt, now, now.plus(ttl)));
        return new Issued(value, now, now.plus(ttl));
    }

    /** A token as it is shown once. */
    record Issued(String value, Instant issuedAt, Instant expiresAt) {
        @Override
        public String toString() {
            return "Issued[expiresAt=" + expiresAt + "]";
        }
    }

    public static boolean isWellFormed(String value) {
        return value != null && FORMAT.matcher(value).matches();
    }

    /** The record of a presented token, in any state; empty when it is not one of ours. */
    @Transactional(readOnly = true)
    public Optional<RefreshTokenRecord> find(String value) {
        return isWellFormed(value) ? records.findByTokenDigest(Secrets.sha256Hex(value)) : Optional.empty();
    }

    /**
     * Marks a live token rotated; false when another refresh did first, or it was revoked meanwhile. The
     * caller holds the family's lock ({@link DatabaseAuthorizationService#lockRecord}).
     */
    @Transactional
    boolean rotate(RefreshTokenRecord record) {
        return records.markRotated(record.id(), clock.instant()) == 1;
    }

    /**
     * Revokes a whole family: its refresh tokens, and its access tokens (evicted from every instance's
     * cache at commit). The family's row is locked first: a rotation in flight finishes before, and its new
     * tokens are revoked too; one that comes after finds its token revoked.
     *
     * @return how many tokens were revoked, of both kinds
     */
    @Transactional
    public int revokeFamily(String authorizationId) {
        families.lockById(authorizationId);
        return records.revokeFamily(authorizationId, clock.instant()) + accessTokens.revokeByAuthorization(authorizationId);
    }

    /** A rotated token came back (RFC 9700 §4.14.2): the family is revoked, and the event recorded. */
    @Transactional
    int reuseDetected(RefreshTokenRecord record) {
        int revoked = revokeFamily(record.authorizationId());
        events.publishEvent(new AuditEvent(AuditEvent.Type.REFRESH_REUSE_DETECTED, "autorización "
                + record.authorizationId() + " de usuario #" + record.userId() + "; tokens revocados: " + revoked,
                record.clientId()));
        return revoked;
    }

    /**
     * A user withdrew an application's access: every family of that user and application is locked, then
     * its access and refresh tokens are revoked.
     *
     * @return how many tokens were revoked, of both kinds
     */
    @Override
    @Transactional
    public int revokeFamilies(String clientId, long userId) {
        families.lockByClientAndUser(clientId, userId);
        return accessTokens.revokeByClientAndUser(clientId, userId)
                + records.revokeByClientAndUser(clientId, userId, clock.instant());
    }

    /**
     * An application was revoked: so are its refresh tokens, in the same transaction, after its families
     * are locked; first of the listeners, so the access tokens' revocation comes after the locks too.
     */
    @EventListener
    @Order(Ordered.HIGHEST_PRECEDENCE)
    void onClientRevoked(ClientRevoked event) {
        families.lockByClient(event.clientId());
        records.revokeByClient(event.clientId(), clock.instant());
    }

    @Override
    public Kind kind() {
        return Kind.ENDED_TOKENS;
    }

    /** The retention job: deletes tokens that expired or were revoked before {@code cutoff}. */
    @Transactional
    @Override
    public int purge(Instant cutoff, Instant now) {
        return records.deleteEndedBefore(cutoff);
    }
}
