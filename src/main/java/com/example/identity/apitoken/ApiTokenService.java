package com.example.identity.apitoken;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.data.domain.Slice;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import com.example.identity.account.AccountIds;
import com.example.identity.account.Caller;
import com.example.identity.account.RoleChanged;
import com.example.identity.audit.AuditEvent;
import com.example.identity.client.ClientRevoked;
import com.example.identity.common.ListQuery;
import com.example.identity.common.Names;
import com.example.identity.common.Purge;
import com.example.identity.crypto.Secrets;

/**
 * The one place where API tokens are made, listed and revoked: the dashboard, the management routes,
 * {@code /api/tokens/create.php} and the OAuth token endpoint all come here. A token is 32
 * {@code SecureRandom} bytes as 64 lowercase hex characters; only its SHA-256 digest is stored, and the
 * plain value exists only in the {@link IssuedToken} returned when it is made. A presented token is checked
 * by {@link ApiTokenValidator}, whose caches this class evicts when it changes a token.
 */
@Service
public class ApiTokenService implements Purge {

    private final AccountIds accountIds;
    private final ApiTokenRepository tokens;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final JdbcTemplate jdbc;
    /** The hot path, whose caches learn here of every token minted, revoked or changed. */
    private final ApiTokenValidator validator;

    ApiTokenService(ApiTokenRepository tokens, Clock clock, ApplicationEventPublisher events,
            ApiTokenValidator validator, JdbcTemplate jdbc, AccountIds accountIds) {
        this.accountIds = accountIds;
        this.jdbc = jdbc;
        this.tokens = tokens;
        this.clock = clock;
        this.events = events;
        this.validator = validator;
    }

    /** A personal token of the default scope ({@code perfil}): no expiry, valid until revoked. */
    @Transactional
    public IssuedToken createPersonal(long ownerId, String name) {
        return createPersonal(ownerId, name, TokenScope.DEFAULT);
    }

    /**
     * A token made by its owner: no expiry, valid until revoked; {@code scope} says whether it may be used
     * at the management routes too.
     *
     * @throws IllegalArgumentException when the name breaks the shared rule ({@link Names})
     */
    @Transactional
    public IssuedToken createPersonal(long ownerId, String name, TokenScope scope) {
        NewValue fresh = newValue();
        ApiToken token = tokens.save(new ApiToken(ownerId, Names.clean(name), fresh.digest(), fresh.prefix(),
                Objects.requireNonNull(scope), clock.instant(), null));
        IssuedToken issued = new IssuedToken(fresh.value(), token);
        events.publishEvent(new AuditEvent(AuditEvent.Type.TOKEN_CREATED, describe(issued.token())));
        return issued;
    }

    private static String describe(ApiToken token) {
        return "token #" + token.getId() + " " + token.getPrefix() + "… de usuario #" + token.getUserId();
    }

    /** An access token of the token endpoint: belongs to the client, carries its scopes, expires after {@code ttl}. */
    public String issueForClient(long ownerId, String clientId, Set<String> scopes, String authorizationId,
            Duration ttl) {
        return issueForClient(ownerId, clientId, scopes, authorizationId, Set.of(), ttl);
    }

    /**
     * An access token of the token endpoint, with the known claims its authorization asked for at the
     * UserInfo endpoint ({@code claims} parameter). Every code exchange, refresh and device grant mints one, so
     * it is one plain INSERT (no entity, no generated id read back), in the caller's transaction: the code is
     * spent and its token stored together, or neither.
     */
    public String issueForClient(long ownerId, String clientId, Set<String> scopes, String authorizationId,
            Set<String> userInfoClaims, Duration ttl) {
        return issueForClient(ownerId, clientId, scopes, authorizationId, userInfoClaims, null, ttl);
    }

    /**
     * As above, bound to a DPoP key when {@code dpopJkt} (its thumbprint, RFC 9449 §6) is given: the token is then
     * good only with a proof of that key ({@code Authorization: DPoP}, decisions §28).
     */
    public String issueForClient(long ownerId, String clientId, Set<String> scopes, String authorizationId,
            Set<String> userInfoClaims, @Nullable String dpopJkt, Duration ttl) {
        return insert(TokenKind.OAUTH, ownerId, clientId, scopes, authorizationId, userInfoClaims, dpopJkt, ttl);
    }

    /**
     * An access token of the client credentials grant (decisions §21): a {@code servidor} application's own,
     * for no user and no authorization; {@code ownerId} is the application's owner, whose applications' tokens
     * it may introspect. One INSERT, like the others.
     */
    public String issueForServer(long ownerId, String clientId, Set<String> scopes, Duration ttl) {
        return insert(TokenKind.SERVER, ownerId, clientId, scopes, null, Set.of(), null, ttl);
    }

    private String insert(TokenKind kind, long ownerId, String clientId, Set<String> scopes,
            @Nullable String authorizationId, Set<String> userInfoClaims, @Nullable String dpopJkt, Duration ttl) {
        Instant now = clock.instant();
        NewValue fresh = newValue();
        jdbc.update("""
                insert into api_tokens (user_id, name, token_digest, prefix, kind, client_id, scopes, authorization_id,
                    userinfo_claims, dpop_jkt, created_at, expires_at)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", ownerId,
                (kind == TokenKind.SERVER ? "Servidor " : "OAuth ") + clientId, fresh.digest(), fresh.prefix(),
                kind.value(), clientId, String.join(" ", scopes), authorizationId,
                userInfoClaims.isEmpty() ? null : String.join(" ", userInfoClaims), dpopJkt, Timestamp.from(now),
                Timestamp.from(now.plus(ttl)));
        return fresh.value();
    }

    /** A new token: its value (shown once), the digest that is stored, and the prefix that is listed. */
    private record NewValue(String value, String digest, String prefix) {
        @Override
        public String toString() {
            return "NewValue[prefix=" + prefix + "]";
        }
    }

    private NewValue newValue() {
        String value = Secrets.randomHex(32);
        String digest = Secrets.sha256Hex(value);
        // 256 random bits are never presented before they are shown, so this digest cannot be in the
        // negative cache; forgotten anyway, now and at commit, so that being unknown never outlives creation
        validator.forgetUnknown(digest);
        return new NewValue(value, digest, value.substring(0, 8));
    }

    /**
     * Forgets cached tokens that {@code key} names, now and again once the current transaction commits,
     * so that no request can put back what a revocation is about to change.
     */
    private void evict(String key) {
        validator.evict(key); // here now and after the transaction; on other instances at commit
    }

    /**
     * A token's row was changed outside this class (the import of the old system's changes, migration/: a
     * new name, expiry or scope): every instance looks it up again, here at once and elsewhere at commit.
     */
    public void changedOutside(long tokenId) {
        evict("id=" + tokenId);
    }

    /**
     * Tokens were stored whose values were in use before (the import of the old system's tokens, migration/):
     * a caller may have presented one already and had it remembered as unknown, so every instance forgets
     * every unknown digest, here now and after the transaction, elsewhere at commit. One message per import.
     */
    public void knownValuesStored() {
        validator.forgetAllUnknown();
    }

    /**
     * Dropped from {@code developer_api} or {@code admin} to {@code user}: their personal tokens are revoked
     * in the role change's transaction (specification §2.2 ties them to those roles). Tokens issued to OAuth
     * applications for their logins stay: those belong to the applications.
     */
    @EventListener
    void onRoleChanged(RoleChanged event) {
        if (event.demotedToUser()) {
            evict("user=" + event.userId()); // every cached token of theirs is looked up again
            int revoked = tokens.revokeKindByUser(event.userId(), TokenKind.PERSONAL, clock.instant());
            if (revoked > 0) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.TOKEN_REVOKED,
                        revoked + " tokens personales de usuario #" + event.userId() + " (ya no es desarrollador)"));
            }
        }
    }

    /** The tokens {@code caller} may see: their own, or every token for an admin; newest first. */
    @Transactional(readOnly = true)
    public List<ApiToken> visibleTo(Caller caller) {
        return caller.admin() ? listAll() : listForOwner(caller.userId());
    }

    /**
     * Revokes a token on behalf of {@code caller}.
     *
     * @return false when the token does not exist or is not {@code caller}'s to revoke (the two are not
     *     told apart, so nobody learns of another's tokens); true when it is revoked, now or before
     */
    @Transactional
    public boolean revokeAs(Caller caller, long tokenId) {
        return tokens.findById(tokenId).filter(t -> caller.mayActOn(t.getUserId())).map(t -> {
            evict("id=" + tokenId);
            if (t.revoke(clock.instant())) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.TOKEN_REVOKED, describe(t)));
            }
            return true;
        }).orElse(false);
    }

    /**
     * The token with this value, in any state (revoked, expired): what an application may revoke at
     * {@code /oauth/revoke.php} if it was issued to it. Empty for anything that is not a token of ours.
     */
    @Transactional(readOnly = true)
    public Optional<ApiToken> findByValue(String presentedToken) {
        return ApiTokenValidator.isWellFormed(presentedToken)
                ? tokens.findByTokenDigest(Secrets.sha256Hex(presentedToken)) : Optional.empty();
    }

    /** Revokes one token; false when there is no such token or it was already revoked. */
    @Transactional
    public boolean revoke(long tokenId) {
        return tokens.findById(tokenId).map(t -> {
            evict("id=" + tokenId);
            boolean revoked = t.revoke(clock.instant());
            if (revoked) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.TOKEN_REVOKED, describe(t)));
            }
            return revoked;
        }).orElse(false);
    }

    /**
     * An application revokes a token issued to it ({@code /oauth/revoke.php}, RFC 7009): revoked, evicted on
     * every instance at commit, and recorded with the application as the actor.
     *
     * @return false when it was already revoked
     */
    @Transactional
    public boolean revokeForClient(long tokenId, String clientId) {
        return tokens.findById(tokenId).filter(t -> clientId.equals(t.getClientId())).map(t -> {
            evict("id=" + tokenId);
            boolean revoked = t.revoke(clock.instant());
            if (revoked) {
                events.publishEvent(new AuditEvent(AuditEvent.Type.TOKEN_REVOKED_BY_CLIENT, describe(t), clientId));
            }
            return revoked;
        }).orElse(false);
    }

    /** Revokes every live token issued from one authorization (code reuse, RFC 6749 §4.1.2). */
    @Transactional
    public int revokeByAuthorization(String authorizationId) {
        evict("auth=" + authorizationId);
        return tokens.revokeByAuthorization(authorizationId, clock.instant());
    }

    /**
     * An application was revoked: its live tokens are revoked and forgotten in the same transaction. A
     * token that a concurrent code exchange commits after this is refused all the same: the lookup joins
     * the client's revoked flag.
     */
    @EventListener
    void onClientRevoked(ClientRevoked event) {
        revokeByClient(event.clientId());
    }

    /** Revokes every live token issued to one OAuth client for one user (the user withdrew their consent). */
    @Transactional
    public int revokeByClientAndUser(String clientId, long userId) {
        evict("user=" + userId);
        return tokens.revokeByClientAndUser(clientId, userId, clock.instant());
    }

    /**
     * Revokes every live token of one user, personal ones and those issued to applications for them, not the own
     * tokens of their {@code servidor} applications (a sanction in every application, sanctions/): evicted from
     * every instance's cache at commit.
     */
    @Transactional
    public int revokeAllOfUser(long userId) {
        evict("user=" + userId);
        return tokens.revokeByUserExceptKind(userId, TokenKind.SERVER, clock.instant());
    }

    /** Revokes every live token issued to one OAuth client (the client was revoked). */
    @Transactional
    public int revokeByClient(String clientId) {
        evict("client=" + clientId);
        return tokens.revokeByClient(clientId, clock.instant());
    }

    @Override
    public Kind kind() {
        return Kind.ENDED_TOKENS;
    }

    /**
     * Deletes tokens revoked or expired before {@code cutoff} (the retention job); returns how many. Only
     * tokens that can no longer authenticate anyone, so no cache needs evicting.
     */
    @Transactional
    @Override
    public int purge(Instant cutoff, Instant now) {
        return tokens.deleteEndedBefore(cutoff);
    }

    /** Newest first. */
    @Transactional(readOnly = true)
    public List<ApiToken> listForOwner(long ownerId) {
        return tokens.findByUserIdOrderByCreatedAtDesc(ownerId);
    }

    /**
     * One page of the tokens {@code caller} may see (their own, or every token for an admin), newest first;
     * with a search, those whose name contains it, issued to the client id it names, or owned by the
     * account whose e-mail it is.
     */
    @Transactional(readOnly = true)
    public Slice<ApiToken> page(Caller caller, ListQuery query) {
        if (!query.searching()) {
            return caller.admin() ? tokens.findAllByOrderByCreatedAtDescIdDesc(query.pageable())
                    : tokens.findByUserIdOrderByCreatedAtDescIdDesc(caller.userId(), query.pageable());
        }
        Long owner = caller.admin() ? accountIds.ofEmail(query.email()) : null;
        return caller.admin() ? tokens.search(query.pattern(), query.search(), owner == null ? -1 : owner, query.pageable())
                : tokens.searchOwn(caller.userId(), query.pattern(), query.search(), query.pageable());
    }

    /** Every token, newest first (admins). */
    @Transactional(readOnly = true)
    public List<ApiToken> listAll() {
        return tokens.findAllByOrderByCreatedAtDesc();
    }

    /** A token as it is shown once: {@code value} is the plain token. */
    public record IssuedToken(String value, ApiToken token) {
        @Override
        public String toString() {
            return "IssuedToken[prefix=" + token.getPrefix() + "]";
        }
    }
}
