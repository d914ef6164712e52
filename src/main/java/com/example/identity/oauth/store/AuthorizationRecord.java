package com.example.identity.oauth.store;

import java.time.Instant;
import java.util.Set;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

import org.springframework.data.domain.Persistable;

import com.example.identity.common.SpaceSeparated;

/**
 * One authorization granted at {@code /oauth/authorize.php} with its code (specification §2.4): bound to
 * the client and the redirect URI, with an expiry and a used marker. The code itself is kept only as its
 * SHA-256 digest.
 *
 * <p>{@link Persistable}: a record made here is new and one made by Hibernate from a row is not, so saving
 * a new one is a single INSERT (no SELECT to tell a new id from an existing one, as {@code merge} would
 * need). A record is written once: saving a second one with the same id is refused by the primary key.
 */
@Entity
@Table(name = "oauth_authorizations")
public class AuthorizationRecord implements Persistable<String> {

    @Id
    @Column(length = 100)
    private String id;

    @Column(name = "client_id", nullable = false, length = 100)
    private String clientId;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false, length = 200)
    private String scopes;

    /** Null for an authorization of the device flow, which has no redirect. */
    @Column(name = "redirect_uri", length = 2000)
    private String redirectUri;

    @Column(length = 512)
    private String nonce;

    @Column(name = "code_challenge", length = 128)
    private String codeChallenge;

    @Column(name = "code_challenge_method", length = 10)
    private String codeChallengeMethod;

    /** Null for an authorization of the device flow: its device code is kept with the run. */
    @Column(name = "code_digest", length = 64, unique = true)
    private String codeDigest;

    @Column(name = "code_issued_at", nullable = false)
    private Instant codeIssuedAt;

    @Column(name = "code_expires_at", nullable = false)
    private Instant codeExpiresAt;

    @Column(name = "code_used_at")
    private Instant codeUsedAt;

    @Column(name = "auth_time", nullable = false)
    private Instant authTime;

    /** RFC 8176 authentication method references, space-separated ({@code pwd}); null for older rows. */
    @Column(length = 64)
    private String amr;

    /** Known claims asked for in the id_token with the {@code claims} parameter, space-separated. */
    @Column(name = "id_token_claims", length = 200)
    private String idTokenClaims;

    /** Known claims asked for at the UserInfo endpoint with the {@code claims} parameter, space-separated. */
    @Column(name = "userinfo_claims", length = 200)
    private String userInfoClaims;

    /**
     * The login session's {@code sid} (Back-Channel Logout 1.0), for a code of scope {@code openid} issued in a
     * browser session: its id_tokens carry it, and the session's end tells the client (backchannel/). Null otherwise.
     */
    @Column(length = 64)
    private String sid;

    @Transient
    private boolean isNew;

    protected AuthorizationRecord() {
    }

    /**
     * The authorization request as granted: the client, the scopes it was given, and what its request carried
     * (redirect URI, OIDC {@code nonce}, PKCE challenge and method, the known claims asked for with the
     * {@code claims} parameter). Null where the request had none.
     */
    record Request(String clientId, Set<String> scopes, String redirectUri, String nonce, String codeChallenge,
            String codeChallengeMethod, Set<String> idTokenClaims, Set<String> userInfoClaims) {

        /** A device flow's: no redirect URI, nonce, PKCE or {@code claims} parameter. */
        static Request ofDevice(String clientId, Set<String> scopes) {
            return new Request(clientId, scopes, null, null, null, null, Set.of(), Set.of());
        }
    }

    /**
     * The account that granted it, and its login: when ({@code auth_time}), how (RFC 8176 {@code amr}) and in which
     * login session ({@code sid}, null where none: the device flow, a code without {@code openid}).
     */
    public record Login(long userId, Instant authTime, Set<String> amr, String sid) {

        /** A login with no session to tell of its end (the device flow). */
        public Login(long userId, Instant authTime, Set<String> amr) {
            this(userId, authTime, amr, null);
        }
    }

    /** The code: its SHA-256 digest (null for the device flow), when it was issued and when it expires. */
    record Code(String digest, Instant issuedAt, Instant expiresAt) {
    }

    /** A new authorization, to be inserted. */
    AuthorizationRecord(String id, Request request, Login login, Code code) {
        this.id = id;
        this.clientId = request.clientId();
        this.userId = login.userId();
        this.scopes = String.join(" ", request.scopes());
        this.redirectUri = request.redirectUri();
        this.nonce = request.nonce();
        this.codeChallenge = request.codeChallenge();
        this.codeChallengeMethod = request.codeChallengeMethod();
        this.codeDigest = code.digest();
        this.codeIssuedAt = code.issuedAt();
        this.codeExpiresAt = code.expiresAt();
        this.authTime = login.authTime();
        this.amr = login.amr().isEmpty() ? null : String.join(" ", login.amr());
        this.idTokenClaims = request.idTokenClaims().isEmpty() ? null : String.join(" ", request.idTokenClaims());
        this.userInfoClaims = request.userInfoClaims().isEmpty() ? null : String.join(" ", request.userInfoClaims());
        this.sid = login.sid();
        this.isNew = true;
    }

    /**
     * The authorization a device flow run was spent for (RFC 8628): no redirect URI and no code; its
     * "code" times are the run's, and it is marked used at once, so nothing takes it for a code to
     * exchange. It is the family of the refresh tokens, and holds the login's {@code auth_time} and
     * {@code amr} for the id_tokens of later refreshes.
     */
    public static AuthorizationRecord forDevice(String id, String clientId, Set<String> scopes, Login login,
            Instant startedAt, Instant expiresAt, Instant now) {
        var record = new AuthorizationRecord(id, Request.ofDevice(clientId, scopes), login,
                new Code(null, startedAt, expiresAt));
        record.codeUsedAt = now;
        return record;
    }

    /**
     * The authorization of a guest player's tokens (decisions §24, {@code POST /oauth/invitado.php}): no redirect
     * URI and no code (its "code" times are the creation's, and it is marked used at once), the login being the
     * guest's creation ({@code auth_time}, no {@code amr}). It is the family of the guest's refresh tokens, as the
     * device flow's is.
     */
    public static AuthorizationRecord forGuest(String id, String clientId, Set<String> scopes, long userId, Instant now) {
        var record = new AuthorizationRecord(id, Request.ofDevice(clientId, scopes),
                new Login(userId, now, Set.of()), new Code(null, now, now));
        record.codeUsedAt = now;
        return record;
    }

    /**
     * A record as a row holds it, read by {@link CodeStatements} (not new: it is never inserted again);
     * {@code codeUsedAt} null while the code is unused.
     */
    static AuthorizationRecord loaded(String id, Request request, Login login, Code code, Instant codeUsedAt) {
        var record = new AuthorizationRecord(id, request, login, code);
        record.codeUsedAt = codeUsedAt;
        record.isNew = false;
        return record;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public boolean isNew() {
        return isNew;
    }

    @PostPersist
    void persisted() {
        isNew = false;
    }

    public boolean isUsed() {
        return codeUsedAt != null;
    }

    /** Expired when the expiry is not later than {@code now} (specification §3). */
    public boolean isExpiredAt(Instant now) {
        return !codeExpiresAt.isAfter(now);
    }

    public String id() {
        return id;
    }

    public String clientId() {
        return clientId;
    }

    public long userId() {
        return userId;
    }

    public Set<String> scopes() {
        return SpaceSeparated.words(scopes);
    }

    public String redirectUri() {
        return redirectUri;
    }

    String nonce() {
        return nonce;
    }

    String codeDigest() {
        return codeDigest;
    }

    public String codeChallenge() {
        return codeChallenge;
    }

    public String codeChallengeMethod() {
        return codeChallengeMethod;
    }

    Instant codeIssuedAt() {
        return codeIssuedAt;
    }

    Instant codeExpiresAt() {
        return codeExpiresAt;
    }

    Instant authTime() {
        return authTime;
    }

    java.util.List<String> amr() {
        return SpaceSeparated.words(amr).stream().toList();
    }

    Set<String> idTokenClaims() {
        return SpaceSeparated.words(idTokenClaims);
    }

    Set<String> userInfoClaims() {
        return SpaceSeparated.words(userInfoClaims);
    }

    /** The login session's sid, null without scope openid or a session. */
    public String sid() {
        return sid;
    }

}
