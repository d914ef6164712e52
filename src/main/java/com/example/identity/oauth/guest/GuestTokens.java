package com.example.identity.oauth.guest;

import java.security.Principal;
import java.time.Clock;
import java.util.Set;
import java.util.UUID;

import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AccessTokenAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContextHolder;
import org.springframework.security.oauth2.server.authorization.token.DefaultOAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.UserAccount;
import com.example.identity.guestaccount.Guests;
import com.example.identity.oauth.error.TokenError;
import com.example.identity.oauth.store.AuthorizationRecord;
import com.example.identity.oauth.store.DatabaseAuthorizationService;
import com.example.identity.oauth.token.IssuedTokens;

/**
 * The last step of {@code /oauth/invitado.php} (decisions §24): in one transaction, the guest (guestaccount/Guests: its
 * account and its row), the authorization its tokens belong to ({@link AuthorizationRecord#forGuest}: the family of
 * its refresh tokens, as a device flow's) and its tokens, made by Spring Authorization Server's own token generator
 * (the server's: 64-hex access tokens stored as API tokens, refresh tokens of that family, which the refresh grant
 * rotates as any other, and an RS256 id_token signed after the commit when {@code openid} was asked). A guest's
 * tokens are ordinary tokens of that application.
 */
@Component
class GuestTokens {

    /** The grant the tokens' context names: no grant of the token endpoint, this endpoint's own. */
    static final AuthorizationGrantType GUEST = new AuthorizationGrantType("urn:identity:invitado");

    private final Guests guests;
    private final DatabaseAuthorizationService authorizations;
    private final OAuth2TokenGenerator<OAuth2Token> tokenGenerator;
    private final TransactionTemplate transactions;
    private final Clock clock;

    GuestTokens(Guests guests, DatabaseAuthorizationService authorizations,
            OAuth2TokenGenerator<OAuth2Token> tokenGenerator, TransactionTemplate transactions, Clock clock) {
        this.guests = guests;
        this.authorizations = authorizations;
        this.tokenGenerator = tokenGenerator;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** What the transaction made: the tokens and the context that makes the id_token after the commit. */
    private record Made(OAuth2AccessToken accessToken, OAuth2RefreshToken refreshToken,
            DefaultOAuth2TokenContext.Builder context) {
    }

    /** A new guest of {@code client} with {@code scopes}, and the token endpoint's answer for it. */
    OAuth2AccessTokenAuthenticationToken issue(RegisteredClient client, Set<String> scopes) {
        // the Argon2id hash first, holding no database connection while it waits for a hashing thread (issue 47)
        String passwordHash;
        try {
            passwordHash = guests.unusablePasswordHash();
        }
        catch (RuntimeException e) {
            throw TokenError.internal(e);
        }
        Made made = IssuedTokens.inTransaction(transactions, status -> make(client, scopes, passwordHash));
        var clientPrincipal = new OAuth2ClientAuthenticationToken(client, ClientAuthenticationMethod.NONE, null);
        return IssuedTokens.answer(tokenGenerator, made.context(), scopes, client, clientPrincipal, made.accessToken(),
                made.refreshToken());
    }

    private Made make(RegisteredClient client, Set<String> scopes, String passwordHash) {
        UserAccount guest = guests.create(client.getClientId(), passwordHash);
        AccountPrincipal user = AccountPrincipal.of(guest);
        AuthorizationRecord record = AuthorizationRecord.forGuest(UUID.randomUUID().toString(), client.getClientId(),
                scopes, user.id(), clock.instant());
        authorizations.saveRecord(record);
        OAuth2Authorization authorization = DatabaseAuthorizationService.toAuthorization(record, client, user, null);
        DefaultOAuth2TokenContext.Builder context = DefaultOAuth2TokenContext.builder()
                .registeredClient(client)
                .principal(authorization.getAttribute(Principal.class.getName()))
                .authorizationServerContext(AuthorizationServerContextHolder.getContext())
                .authorization(authorization)
                .authorizedScopes(scopes)
                .authorizationGrantType(GUEST);
        var accessToken = (OAuth2AccessToken) tokenGenerator.generate(context.tokenType(OAuth2TokenType.ACCESS_TOKEN).build());
        // a native or device application is a public client: a refresh token always (oauth/token/RefreshTokenGenerator)
        var refreshToken = (OAuth2RefreshToken) tokenGenerator.generate(context.tokenType(OAuth2TokenType.REFRESH_TOKEN).build());
        if (accessToken == null || refreshToken == null) {
            throw new IllegalStateException("the token generator made no token for a guest");
        }
        return new Made(accessToken, refreshToken, context);
    }
}
