package com.example.identity.oauth.token;

import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.core.oidc.IdTokenClaimNames;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2RefreshTokenAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContextHolder;
import org.springframework.security.oauth2.server.authorization.token.DefaultOAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.dpop.DPoPProofs.Proof;
import com.example.identity.keys.SigningKeys;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.error.TokenError;
import com.example.identity.oauth.store.AuthorizationRecord;
import com.example.identity.oauth.store.DatabaseAuthorizationService;

/**
 * The refresh grant at {@code /oauth/token.php} (RFC 6749 §6, decisions §12.4 and §12.5), after the client
 * authenticated: the client is not revoked ({@code client_revoked}, as for a code); then, in one
 * transaction, the token is found (of this client), not revoked, not expired, of an enabled account that no sanction
 * keeps out of this client (decisions §26, {@link SanctionCheck}), the
 * requested scopes are among the granted ones, the family's row is locked (read with that lock, the
 * statement that reads the login's record), and the token is rotated by one conditional UPDATE while the
 * new access and refresh tokens are stored, so that of concurrent refreshes with one token exactly one
 * wins, and a revocation of the family never runs beside a rotation ({@link RefreshTokens}). A token that
 * was already rotated, or that loses that race, is a reuse (RFC 9700 §4.14.2): the whole family is
 * revoked, in a transaction of its own, and the answer is {@code invalid_grant}. A token revoked while
 * this refresh waited for the lock is the ordinary {@code invalid_grant}.
 *
 * <p>DPoP (RFC 9449 §5, decisions §28): a proof, when sent (or required by the application), is checked before the
 * transaction ({@link TokenRequestProofs}); the new access token is bound to its key, and so is a public client's
 * new refresh token. A token bound to a key is refreshed only with a proof of that key: without one, or with
 * another key, {@code invalid_dpop_proof}, checked first of all once the token is found, so that a copy of the token
 * without the key learns nothing about it and changes nothing (not even a reuse's revocation of the family).
 *
 * <p>A guest's refresh (decisions §24) is its last use ({@link RefreshTokens#guestRefreshed}), stamped after the
 * commit.
 *
 * <p>Refusals after the client checks are RFC 6749 §5.2's, with a Spanish description. A new id_token is
 * returned when {@code openid} is granted (OIDC Core §12.2): same {@code sub}, {@code aud} and
 * {@code auth_time} as the login's, no {@code nonce}.
 */
public final class RefreshTokenExchange implements AuthenticationProvider {

    public static final String INVALID = "refresh_token invalido, caducado o revocado";
    public static final String REUSED = "refresh_token ya utilizado: se han revocado los tokens de esta autorizacion";

    private final RefreshTokens refreshTokens;
    private final DatabaseAuthorizationService authorizations;
    private final GrantHolders accounts;
    private final OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator;
    private final SigningKeys signingKeys;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final TokenRequestProofs proofs;

    public RefreshTokenExchange(RefreshTokens refreshTokens, DatabaseAuthorizationService authorizations,
            GrantHolders accounts, OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator, SigningKeys signingKeys,
            TransactionTemplate transactions, Clock clock, TokenRequestProofs proofs) {
        this.proofs = proofs;
        this.refreshTokens = refreshTokens;
        this.authorizations = authorizations;
        this.accounts = accounts;
        this.tokenGenerator = tokenGenerator;
        this.signingKeys = signingKeys;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var grant = (OAuth2RefreshTokenAuthenticationToken) authentication;
        var clientPrincipal = (OAuth2ClientAuthenticationToken) grant.getPrincipal();
        RegisteredClient client = clientPrincipal.getRegisteredClient();
        ClientCredentialsChecks.revokedCheck(client);
        Proof proof = proofs.verify(grant.getAdditionalParameters(), client);
        Refreshed refreshed = IssuedTokens.inTransaction(transactions, status -> refresh(grant, client, proof));
        if (refreshed.accessToken() == null) {
            refreshTokens.reuseDetected(refreshed.record());
            throw StandardError.invalidGrant(REUSED);
        }
        if (refreshed.context().build().getPrincipal().getPrincipal() instanceof AccountPrincipal user
                && user.rol().isGuest()) {
            // a guest played (decisions §24): its last use, after the refresh's commit and outside its locks
            refreshTokens.guestRefreshed(user.id());
        }
        return IssuedTokens.answer(tokenGenerator, refreshed.context(), refreshed.context().build().getAuthorizedScopes(),
                client, clientPrincipal, refreshed.accessToken(), refreshed.refreshToken());
    }

    /** What the refresh's transaction did: rotated the token for new ones, or found it already rotated. */
    private record Refreshed(RefreshTokenRecord record, @Nullable OAuth2AccessToken accessToken,
            @Nullable OAuth2RefreshToken refreshToken, DefaultOAuth2TokenContext.@Nullable Builder context) {

        static Refreshed reuse(RefreshTokenRecord record) {
            return new Refreshed(record, null, null, null);
        }
    }

    private Refreshed refresh(OAuth2RefreshTokenAuthenticationToken grant, RegisteredClient client,
            @Nullable Proof proof) {
        RefreshTokenRecord record = refreshTokens.find(grant.getRefreshToken())
                .filter(r -> r.clientId().equals(client.getClientId()))
                .orElseThrow(() -> StandardError.invalidGrant(INVALID));
        TokenRequestProofs.sameKey(record.dpopJkt(), proof);
        if (record.isRevoked()) {
            throw StandardError.invalidGrant(INVALID);
        }
        if (record.isRotated()) {
            return Refreshed.reuse(record);
        }
        Instant now = clock.instant();
        if (record.isExpiredAt(now)) {
            throw StandardError.invalidGrant(INVALID);
        }
        Set<String> granted = record.scopes();
        Set<String> requested = grant.getScopes().isEmpty() ? granted : new LinkedHashSet<>(grant.getScopes());
        if (!granted.containsAll(requested)) {
            throw StandardError.invalidScope("El alcance pedido excede el concedido");
        }
        if (requested.contains(OidcScopes.OPENID) && !signingKeys.canSign()) {
            throw TokenError.OIDC_KEY_MISSING.exception();
        }
        // the family's lock, held to the commit: a revocation of the family waits for this rotation to end
        // (and then revokes its new tokens too), or this rotation waited for it (RefreshTokens)
        AuthorizationRecord authorizationRecord = authorizations.lockRecord(record.authorizationId())
                .orElseThrow(() -> StandardError.invalidGrant(INVALID));
        AccountPrincipal user = accounts.of(record.userId(), client.getClientId(), INVALID);
        if (!refreshTokens.rotate(record)) {
            // changed since it was read: revoked meanwhile (the family ended, nothing was replayed: the ordinary
            // refusal), or rotated by a concurrent refresh (a reuse)
            if (refreshTokens.find(grant.getRefreshToken()).map(RefreshTokenRecord::isRevoked).orElse(true)) {
                throw StandardError.invalidGrant(INVALID);
            }
            return Refreshed.reuse(record);
        }
        // Spring Authorization Server's JwtGenerator copies sid and auth_time of a refresh's id_token from the
        // authorization's previous id_token; this server stores none, so it gets a stand-in that carries only
        // the subject (IdTokenClaims sets auth_time from the stored login, and there is no sid).
        OAuth2Authorization authorization = OAuth2Authorization.from(DatabaseAuthorizationService.toAuthorization(
                authorizationRecord, client, user, null))
                .token(new OidcIdToken("not-stored", now, now.plusSeconds(1), Map.of(IdTokenClaimNames.SUB, user.subject())))
                .build();
        DefaultOAuth2TokenContext.Builder context = DefaultOAuth2TokenContext.builder()
                .registeredClient(client)
                .principal(authorization.getAttribute(Principal.class.getName()))
                .authorizationServerContext(AuthorizationServerContextHolder.getContext())
                .authorization(authorization)
                .authorizedScopes(requested)
                .authorizationGrantType(AuthorizationGrantType.REFRESH_TOKEN)
                .authorizationGrant(grant);
        if (proof != null) {
            context.put(OAuth2TokenContext.DPOP_PROOF_KEY, proof.jwt());
        }
        var accessToken = (OAuth2AccessToken) tokenGenerator.generate(context.tokenType(OAuth2TokenType.ACCESS_TOKEN).build());
        // the successor keeps the family's scopes whatever this access token was narrowed to (RFC 6749 §6), and a
        // public client's is bound to the proof's key (the same key as its predecessor's, when that one was bound)
        RefreshTokens.Issued next = refreshTokens.issue(record.authorizationId(), client.getClientId(), user.id(),
                granted, proof != null && DatabaseRegisteredClientRepository.isPublic(client) ? proof.jkt() : null);
        return new Refreshed(record, accessToken, new OAuth2RefreshToken(next.value(), next.issuedAt(), next.expiresAt()),
                context);
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2RefreshTokenAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
