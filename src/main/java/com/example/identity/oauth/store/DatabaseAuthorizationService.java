package com.example.identity.oauth.store;

import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.core.endpoint.PkceParameterNames;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationCode;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.LoginFactors;
import com.example.identity.crypto.Secrets;
import com.example.identity.oidc.RequestedClaims;
import com.example.identity.session.SessionEnded;

/**
 * Spring Authorization Server's authorizations, in the {@code oauth_authorizations} table of H2 or
 * PostgreSQL. Unlike the stock JDBC service it never stores a code in plain text: only its SHA-256 digest,
 * which is also the authorization's id, and only the fields the flow needs, in typed columns (no serialized objects).
 * An authorization that nothing needs after its code's exchange (no refresh token, no back-channel logout) is deleted
 * by that exchange, in the statement that spends the code; a second use is still recognised through the tokens issued
 * from it (decisions D48). The others keep a used marker and are purged {@code identity.retention.codes} (a day) after
 * their code expired, by {@link ExpiredAuthorizations} from the retention job.
 *
 * <p>Access tokens are not kept here: they are API tokens of the token service, linked to the
 * authorization by its id.
 */
@Component
public class DatabaseAuthorizationService implements OAuth2AuthorizationService {

    public static final String AUTH_TIME = "auth_time";
    public static final String AMR = "amr";
    /** The known claims the {@code claims} parameter asked for in the id_token ({@link RequestedClaims}). */
    public static final String ID_TOKEN_CLAIMS = "id_token_claims";
    /** The known claims the {@code claims} parameter asked for at the UserInfo endpoint. */
    public static final String USERINFO_CLAIMS = "userinfo_claims";
    /** The login session's {@code sid} ({@link AuthorizationRecord}), where the authorization has one. */
    public static final String SID = "sid";

    private final AuthorizationRecordRepository records;
    private final CodeStatements codes;
    private final RegisteredClientRepository clients;
    private final AccountService accounts;
    private final Clock clock;

    DatabaseAuthorizationService(AuthorizationRecordRepository records, CodeStatements codes,
            RegisteredClientRepository clients, AccountService accounts, Clock clock) {
        this.records = records;
        this.codes = codes;
        this.clients = clients;
        this.accounts = accounts;
        this.clock = clock;
    }

    /**
     * Stores a new authorization with its code, as issued by the authorization endpoint: one INSERT. An
     * authorization is written once and its code never replaced; the authorization endpoint gives each one
     * a new random id, and a second save of the same id fails on the primary key. No transaction around it:
     * the INSERT commits by itself (one round trip, {@link CodeStatements}).
     */
    @Override
    public void save(OAuth2Authorization authorization) {
        if (AuthorizationGrantType.CLIENT_CREDENTIALS.equals(authorization.getAuthorizationGrantType())) {
            // a server's grant (decisions §21) has no user, no code, no refresh token, no family: its access
            // token's row (api_tokens, kind servidor) is all there is to revoke, introspect or expire
            return;
        }
        OAuth2Authorization.Token<OAuth2AuthorizationCode> code = authorization.getToken(OAuth2AuthorizationCode.class);
        OAuth2AuthorizationRequest request = authorization.getAttribute(OAuth2AuthorizationRequest.class.getName());
        Authentication user = authorization.getAttribute(Principal.class.getName());
        if (code == null || request == null || user == null || !(user.getPrincipal() instanceof AccountPrincipal account)) {
            // Consent and pushed requests are switched off; nothing else is ever saved here.
            throw new IllegalArgumentException("only authorizations with a code of a logged-in user are stored");
        }
        Map<String, Object> extra = request.getAdditionalParameters();
        // keyed by the code's digest (decisions D48): a token issued from the code names it, so a second use of a
        // code whose row its exchange deleted is still recognised ({@link #findSpentCode})
        String digest = Secrets.sha256Hex(code.getToken().getTokenValue());
        codes.insert(new AuthorizationRecord(digest,
                new AuthorizationRecord.Request(request.getClientId(), authorization.getAuthorizedScopes(),
                        request.getRedirectUri(), (String) extra.get(OidcParameterNames.NONCE),
                        (String) extra.get(PkceParameterNames.CODE_CHALLENGE),
                        (String) extra.get(PkceParameterNames.CODE_CHALLENGE_METHOD),
                        RequestedClaims.idTokenClaims(claimsParameter(extra)),
                        RequestedClaims.userInfoClaims(claimsParameter(extra))),
                new AuthorizationRecord.Login(account.id(), authenticationTime(user), LoginFactors.methods(user),
                        loginSessionSid(authorization.getAuthorizedScopes())),
                new AuthorizationRecord.Code(digest, code.getToken().getIssuedAt(), code.getToken().getExpiresAt())));
    }

    @Override
    @Transactional
    public void remove(OAuth2Authorization authorization) {
        records.deleteById(authorization.getId());
    }

    @Override
    @Transactional(readOnly = true)
    public @Nullable OAuth2Authorization findById(String id) {
        return records.findById(id).map(r -> toAuthorization(r, null)).orElse(null);
    }

    /** Finds an authorization by its code; no other token type is kept here. */
    @Override
    @Transactional(readOnly = true)
    public @Nullable OAuth2Authorization findByToken(String token, @Nullable OAuth2TokenType tokenType) {
        if (token == null || (tokenType != null && !OAuth2ParameterNames.CODE.equals(tokenType.getValue()))) {
            return null;
        }
        return findByCode(token).map(r -> toAuthorization(r, token)).orElse(null);
    }

    /**
     * The record of an authorization, by id (a refresh token's family), its row locked until the caller's
     * transaction ends: the first step of any change to that family ({@link RefreshTokens}).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<AuthorizationRecord> lockRecord(String id) {
        return records.lockById(id);
    }

    /** The record of a presented code, looked up by digest. */
    @Transactional(readOnly = true)
    Optional<AuthorizationRecord> findByCode(String code) {
        return records.findByCodeDigest(Secrets.sha256Hex(code));
    }

    /** The record of a presented code and its owner, in one statement (the code exchange's read). */
    public Optional<CodeAndOwner> findWithOwnerByCode(String code) {
        return codes.findWithOwner(Secrets.sha256Hex(code));
    }

    /**
     * Stores the authorization a device flow run was spent for, or a guest was made for
     * ({@link AuthorizationRecord#forDevice}, {@link AuthorizationRecord#forGuest}).
     */
    @Transactional
    public void saveRecord(AuthorizationRecord record) {
        records.save(record);
    }

    /**
     * Atomically spends the code of {@code authorizationId}; false when another exchange did first. With {@code keep}
     * its authorization stays, marked used (a refresh family, or a {@code sid} for back-channel logout, needs it);
     * without, the same one statement deletes it (decisions D48: the store stays bounded by the live tokens).
     */
    public boolean spendCode(String authorizationId, boolean keep) {
        return keep ? codes.markUsed(authorizationId, clock.instant()) : codes.deleteUnused(authorizationId);
    }

    /** A presented code that is not stored but was spent by an exchange that deleted its authorization. */
    public Optional<SpentCode> findSpentCode(String code) {
        return codes.spentCode(Secrets.sha256Hex(code));
    }

    /** Spring Authorization Server's view of a record, for its token generators and customizers. */
    public @Nullable OAuth2Authorization toAuthorization(AuthorizationRecord record, @Nullable String codeValue) {
        RegisteredClient client = clients.findByClientId(record.clientId());
        Optional<AccountPrincipal> user = accounts.findById(record.userId()).map(AccountPrincipal::of);
        if (client == null || user.isEmpty()) {
            return null;
        }
        return toAuthorization(record, client, user.get(), codeValue);
    }

    public static OAuth2Authorization toAuthorization(AuthorizationRecord record, RegisteredClient client,
            AccountPrincipal user, @Nullable String codeValue) {
        Map<String, Object> extra = new HashMap<>();
        if (record.nonce() != null) {
            extra.put(OidcParameterNames.NONCE, record.nonce());
        }
        if (record.codeChallenge() != null) {
            extra.put(PkceParameterNames.CODE_CHALLENGE, record.codeChallenge());
            extra.put(PkceParameterNames.CODE_CHALLENGE_METHOD, record.codeChallengeMethod());
        }
        OAuth2AuthorizationRequest request = OAuth2AuthorizationRequest.authorizationCode()
                .authorizationUri(Endpoints.AUTHORIZE)
                .clientId(record.clientId())
                .redirectUri(record.redirectUri())
                .scopes(record.scopes())
                .additionalParameters(extra)
                .build();
        var principal = UsernamePasswordAuthenticationToken.authenticated(user, null, user.getAuthorities());
        var builder = OAuth2Authorization.withRegisteredClient(client)
                .id(record.id())
                .principalName(user.getUsername())
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .authorizedScopes(record.scopes())
                .attribute(OAuth2AuthorizationRequest.class.getName(), request)
                .attribute(Principal.class.getName(), principal)
                .attribute(AUTH_TIME, record.authTime())
                .attribute(AMR, record.amr())
                .attribute(ID_TOKEN_CLAIMS, record.idTokenClaims())
                .attribute(USERINFO_CLAIMS, record.userInfoClaims());
        if (record.sid() != null) {
            builder.attribute(SID, record.sid());
        }
        if (codeValue != null) {
            builder.token(new OAuth2AuthorizationCode(codeValue, record.codeIssuedAt(), record.codeExpiresAt()),
                    metadata -> metadata.put(OAuth2Authorization.Token.INVALIDATED_METADATA_NAME, record.isUsed()));
        }
        return builder.build();
    }

    /**
     * When the user typed the password, not when the code was issued: Spring Security 7 records it on
     * the password factor authority of the session's authentication, and a fresh login replaces it.
     */
    private Instant authenticationTime(Authentication user) {
        Instant login = LoginFactors.passwordLoginTime(user);
        return login != null ? login : clock.instant();
    }

    /**
     * The {@code sid} of the browser session the authorization endpoint is answering (the request's: this runs on its
     * thread, inside Spring Session's filter), for a code of scope {@code openid}: its exchange issues an id_token
     * that carries it, and the session's end is told to the client (Back-Channel Logout 1.0, backchannel/).
     */
    private static @Nullable String loginSessionSid(Set<String> scopes) {
        if (!scopes.contains(OidcScopes.OPENID)
                || !(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
            return null;
        }
        HttpSession session = attributes.getRequest().getSession(false);
        return session == null ? null : SessionEnded.sidOf(session);
    }

    private static @Nullable String claimsParameter(Map<String, Object> extra) {
        return extra.get("claims") instanceof String claims ? claims : null;
    }
}
