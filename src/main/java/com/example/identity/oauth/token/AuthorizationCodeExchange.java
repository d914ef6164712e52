package com.example.identity.oauth.token;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Principal;
import java.time.Clock;
import java.util.Base64;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.core.endpoint.PkceParameterNames;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContextHolder;
import org.springframework.security.oauth2.server.authorization.token.DefaultOAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.audit.AuditEvent;
import com.example.identity.dpop.DPoPProofs.Proof;
import com.example.identity.keys.SigningKeys;
import com.example.identity.oauth.authorize.AuthorizeRequestChecks;
import com.example.identity.oauth.error.TokenError;
import com.example.identity.oauth.error.TokenErrorException;
import com.example.identity.oauth.store.AuthorizationRecord;
import com.example.identity.oauth.store.CodeAndOwner;
import com.example.identity.oauth.store.DatabaseAuthorizationService;
import com.example.identity.oauth.store.SpentCode;

/**
 * The steps of {@code /oauth/token.php} after the client authenticated ({@link ClientCredentialsChecks}),
 * in the order of decisions §1: {@link ClientCredentialsChecks#redirectUriCheck},
 * {@link ClientCredentialsChecks#revokedCheck}, the DPoP proof when one is sent or the application requires one
 * ({@link TokenRequestProofs#verify}, decisions §28: the access token is then bound to its key), {@link #codeLookup}, the used check (a reuse revokes every token of
 * that code, {@link #reuseDetected}), {@link #expiryCheck}, {@link #signingKeyCheck} (before the code is spent), {@link #pkceCheck},
 * then {@link #exchange}: the code is spent by one conditional statement in the same transaction that
 * stores the access token, so of concurrent exchanges exactly one wins: an UPDATE that marks it used when its
 * authorization is needed later (a refresh family, back-channel logout), else a DELETE of its authorization, whose
 * second use is then recognised by the token issued from it ({@link #spentCodeLookup}, decisions D48). Plugged into Spring
 * Authorization Server's token endpoint as the provider of the authorization code grant; the tokens come
 * from its {@link OAuth2TokenGenerator}.
 */
public class AuthorizationCodeExchange implements AuthenticationProvider {


    private final DatabaseAuthorizationService authorizations;
    private final OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator;
    private final SigningKeys signingKeys;
    private final RefreshTokens families;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final TokenRequestProofs proofs;

    public AuthorizationCodeExchange(DatabaseAuthorizationService authorizations,
            OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator, SigningKeys signingKeys, RefreshTokens families,
            TransactionTemplate transactions, Clock clock, ApplicationEventPublisher events, TokenRequestProofs proofs) {
        this.proofs = proofs;
        this.authorizations = authorizations;
        this.tokenGenerator = tokenGenerator;
        this.signingKeys = signingKeys;
        this.families = families;
        this.transactions = transactions;
        this.clock = clock;
        this.events = events;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var grant = (OAuth2AuthorizationCodeAuthenticationToken) authentication;
        var clientPrincipal = (OAuth2ClientAuthenticationToken) grant.getPrincipal();
        RegisteredClient client = clientPrincipal.getRegisteredClient();
        ClientCredentialsChecks.redirectUriCheck(client, grant.getRedirectUri());
        ClientCredentialsChecks.revokedCheck(client);
        // outside the transaction: a proof's jti is spent by its own INSERT, and a refused one writes nothing
        Proof proof = proofs.verify(grant.getAdditionalParameters(), client);
        try {
            // One transaction from the code's lookup to the access token's insert: one commit per exchange
            // (on PostgreSQL each transaction is a BEGIN/COMMIT round trip). A refused exchange has written
            // nothing; a reuse is handled after it, in a transaction of its own.
            Spent spent = transactions.execute(status -> {
                CodeAndOwner found = codeLookup(grant, client).orElse(null);
                if (found == null) {
                    return Spent.reuse(spentCodeLookup(grant, client));
                }
                AuthorizationRecord record = found.record();
                if (record.isUsed()) {
                    return Spent.reuse(SpentCode.of(record));
                }
                expiryCheck(record);
                signingKeyCheck(record);
                pkceCheck(record, grant);
                if (!found.owner().isEnabled()) {
                    throw TokenError.INVALID_CODE.exception();
                }
                return exchange(record, grant, client, found.owner(), proof);
            });
            if (spent.accessToken() == null) {
                reuseDetected(spent.code());
            }
            return tokens(spent, clientPrincipal, client);
        }
        catch (TokenErrorException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw TokenError.internal(e);
        }
    }

    /** What the exchange's transaction did: spent the code for an access token, or found it spent (a reuse). */
    record Spent(SpentCode code, @Nullable OAuth2AccessToken accessToken,
            @Nullable OAuth2RefreshToken refreshToken, DefaultOAuth2TokenContext.@Nullable Builder context,
            @Nullable OAuth2Authorization authorization) {

        static Spent reuse(SpentCode code) {
            return new Spent(code, null, null, null, null);
        }
    }

    /**
     * The code's stored authorization with its owner, read in one statement, when it is stored for this client and
     * this redirect URI; empty when it is not stored at all; else {@code Código de autorización inválido}.
     */
    Optional<CodeAndOwner> codeLookup(OAuth2AuthorizationCodeAuthenticationToken grant, RegisteredClient client) {
        Optional<CodeAndOwner> stored = authorizations.findWithOwnerByCode(grant.getCode());
        if (stored.isPresent() && !(stored.get().record().clientId().equals(client.getClientId())
                && stored.get().record().redirectUri().equals(grant.getRedirectUri()))) {
            throw TokenError.INVALID_CODE.exception();
        }
        return stored;
    }

    /**
     * A code not stored: a code spent by an exchange that deleted its authorization (decisions D48) when a token issued
     * from it to this client is still stored, which is a reuse; else {@code Código de autorización inválido}. Its
     * redirect URI went with the authorization and is not compared (the client's own registered URIs were checked).
     */
    SpentCode spentCodeLookup(OAuth2AuthorizationCodeAuthenticationToken grant, RegisteredClient client) {
        return authorizations.findSpentCode(grant.getCode())
                .filter(spent -> spent.clientId().equals(client.getClientId()))
                .orElseThrow(TokenError.INVALID_CODE::exception);
    }

    void expiryCheck(AuthorizationRecord record) {
        if (record.isExpiredAt(clock.instant())) {
            throw TokenError.CODE_EXPIRED.exception();
        }
    }

    /** With {@code openid}, a usable RS256 key is needed; checked before the code is spent. */
    void signingKeyCheck(AuthorizationRecord record) {
        if (record.scopes().contains(OidcScopes.OPENID) && !signingKeys.canSign()) {
            throw TokenError.OIDC_KEY_MISSING.exception();
        }
    }

    /**
     * RFC 7636 with {@code S256} only: a code issued with a challenge needs its verifier, and a verifier
     * for a code issued without one is refused (no PKCE downgrade, RFC 9700 §2.1.1). A verifier must have
     * the syntax of RFC 7636 §4.1 (43 to 128 unreserved characters), whatever its digest.
     */
    void pkceCheck(AuthorizationRecord record, OAuth2AuthorizationCodeAuthenticationToken grant) {
        Object verifier = grant.getAdditionalParameters().get(PkceParameterNames.CODE_VERIFIER);
        if (verifier != null && !(verifier instanceof String v && AuthorizeRequestChecks.CODE_CHALLENGE.matcher(v).matches())) {
            throw TokenError.INVALID_CODE_VERIFIER.exception();
        }
        if (record.codeChallenge() == null) {
            if (verifier != null) {
                throw TokenError.INVALID_CODE_VERIFIER.exception();
            }
            return;
        }
        if (!(verifier instanceof String v) || !"S256".equals(record.codeChallengeMethod())
                || !MessageDigest.isEqual(s256(v).getBytes(StandardCharsets.US_ASCII),
                        record.codeChallenge().getBytes(StandardCharsets.US_ASCII))) {
            throw TokenError.INVALID_CODE_VERIFIER.exception();
        }
    }

    /**
     * Spends the code and stores the access token, inside the exchange's transaction: the code is marked
     * used by one conditional UPDATE, so of concurrent exchanges exactly one wins; a lost race is a reuse.
     */
    Spent exchange(AuthorizationRecord record, OAuth2AuthorizationCodeAuthenticationToken grant,
            RegisteredClient client, AccountPrincipal user, @Nullable Proof proof) {
        OAuth2Authorization authorization = DatabaseAuthorizationService.toAuthorization(record, client, user,
                grant.getCode());
        DefaultOAuth2TokenContext.Builder context = DefaultOAuth2TokenContext.builder()
                .registeredClient(client)
                .principal(authorization.getAttribute(Principal.class.getName()))
                .authorizationServerContext(AuthorizationServerContextHolder.getContext())
                .authorization(authorization)
                .authorizedScopes(authorization.getAuthorizedScopes())
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .authorizationGrant(grant);
        if (proof != null) {
            // the access token, and a public client's refresh token, are bound to the proof's key
            context.put(OAuth2TokenContext.DPOP_PROOF_KEY, proof.jwt());
        }
        // kept only for what needs it after the exchange: a refresh family, a sid to tell at logout (decisions D48)
        boolean keep = RefreshTokenGenerator.issuesFor(client, authorization.getAuthorizedScopes())
                || (record.sid() != null && DatabaseRegisteredClientRepository.hasBackChannelLogout(client));
        if (!authorizations.spendCode(record.id(), keep)) {
            return Spent.reuse(SpentCode.of(record));
        }
        var accessToken = (OAuth2AccessToken) tokenGenerator.generate(context.tokenType(OAuth2TokenType.ACCESS_TOKEN).build());
        // with offline_access only (RefreshTokenGenerator); in the same transaction as the access token
        var refreshToken = (OAuth2RefreshToken) tokenGenerator.generate(context.tokenType(OAuth2TokenType.REFRESH_TOKEN).build());
        return new Spent(SpentCode.of(record), accessToken, refreshToken, context, authorization);
    }

    /** The answer: the access token, and an {@code id_token} (signed after the commit) when {@code openid} was granted. */
    private Authentication tokens(Spent spent, OAuth2ClientAuthenticationToken clientPrincipal, RegisteredClient client) {
        return IssuedTokens.answer(tokenGenerator, spent.context(), spent.authorization().getAuthorizedScopes(), client,
                clientPrincipal, spent.accessToken(), spent.refreshToken());
    }

    /**
     * A second use is refused, and every token issued from that code is revoked (RFC 6749 §4.1.2, decisions
     * §1): its whole family, the access tokens and the refresh tokens, those rotated from it included;
     * record it, refuse. The answer is the same whatever was revoked.
     */
    private void reuseDetected(SpentCode code) {
        int revoked = families.revokeFamily(code.authorizationId());
        events.publishEvent(new AuditEvent(AuditEvent.Type.CODE_REUSE_DETECTED,
                "autorización " + code.authorizationId() + " de usuario #" + code.userId() + "; tokens revocados: " + revoked,
                code.clientId()));
        throw TokenError.CODE_ALREADY_USED.exception();
    }

    public static String s256(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        }
        catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2AuthorizationCodeAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
