package com.example.identity.oauth.token;

import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2DeviceCodeAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContextHolder;
import org.springframework.security.oauth2.server.authorization.token.DefaultOAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.deviceflow.DeviceAuthorization;
import com.example.identity.deviceflow.DeviceAuthorizations;
import com.example.identity.dpop.DPoPProofs.Proof;
import com.example.identity.keys.SigningKeys;
import com.example.identity.oauth.error.StandardError;
import com.example.identity.oauth.error.TokenError;
import com.example.identity.oauth.store.AuthorizationRecord;
import com.example.identity.oauth.store.DatabaseAuthorizationService;

/**
 * The device code grant at {@code /oauth/token.php} (RFC 8628 §3.4 and §3.5, decisions §16), after the
 * client authenticated: the client is not revoked ({@code client_revoked}, as for the other grants) and is
 * of type {@code dispositivo}; then, in one transaction, the poll ({@link DeviceAuthorizations#poll}: its
 * pace is recorded, and a poll sooner than the interval adds 5 s to it) and, when the user approved, the
 * run is spent by one conditional UPDATE while the authorization (the refresh family) and the tokens are
 * stored, so of concurrent polls exactly one gets tokens. The poll's answer is given after the commit:
 * {@code authorization_pending}, {@code slow_down}, {@code access_denied}, {@code expired_token},
 * {@code invalid_grant} (unknown or spent, or a sanction keeps the player out of the application: decisions §26,
 * {@link SanctionCheck}), or the tokens, with a refresh token always (a console keeps its player logged in) and an
 * id_token when {@code openid} was granted.
 */
public final class DeviceCodeExchange implements AuthenticationProvider {

    static final String UNKNOWN = "device_code invalido o ya utilizado";

    private final DeviceAuthorizations devices;
    private final DatabaseAuthorizationService authorizations;
    private final GrantHolders accounts;
    private final OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator;
    private final SigningKeys signingKeys;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final TokenRequestProofs proofs;

    public DeviceCodeExchange(DeviceAuthorizations devices, DatabaseAuthorizationService authorizations,
            GrantHolders accounts, OAuth2TokenGenerator<? extends OAuth2Token> tokenGenerator, SigningKeys signingKeys,
            TransactionTemplate transactions, Clock clock, TokenRequestProofs proofs) {
        this.proofs = proofs;
        this.devices = devices;
        this.authorizations = authorizations;
        this.accounts = accounts;
        this.tokenGenerator = tokenGenerator;
        this.signingKeys = signingKeys;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        var grant = (OAuth2DeviceCodeAuthenticationToken) authentication;
        var clientPrincipal = (OAuth2ClientAuthenticationToken) grant.getPrincipal();
        RegisteredClient client = clientPrincipal.getRegisteredClient();
        ClientCredentialsChecks.revokedCheck(client);
        if (!DatabaseRegisteredClientRepository.isDevice(client)) {
            throw StandardError.unauthorizedClient("El flujo de dispositivo es solo para aplicaciones de tipo dispositivo");
        }
        // a DPoP proof (decisions §28): checked before the poll, outside its transaction; the tokens are bound to its key
        Proof proof = proofs.verify(grant.getAdditionalParameters(), client);
        Exchanged exchanged = IssuedTokens.inTransaction(transactions, status -> exchange(grant, client, proof));
        DeviceAuthorization run = exchanged.poll().run();
        switch (exchanged.poll().outcome()) {
            case UNKNOWN -> throw StandardError.invalidGrant(UNKNOWN);
            case EXPIRED -> throw StandardError.expiredToken("El device_code ha caducado: empieza de nuevo en /oauth/device.php");
            case DENIED -> throw StandardError.accessDenied("El usuario ha rechazado la autorizacion");
            case PENDING -> throw StandardError.authorizationPending("El usuario aun no ha autorizado el dispositivo");
            case SLOW_DOWN -> throw StandardError.slowDown("Consultas demasiado seguidas: espera " + run.pollInterval()
                    + " segundos entre una y otra");
            case APPROVED -> {
                // below
            }
        }
        return IssuedTokens.answer(tokenGenerator, exchanged.context(), exchanged.context().build().getAuthorizedScopes(),
                client, clientPrincipal, exchanged.accessToken(), exchanged.refreshToken());
    }

    /** What the poll's transaction did: the poll, and for the one that spent an approved run, its tokens. */
    private record Exchanged(DeviceAuthorizations.Poll poll, @Nullable OAuth2AccessToken accessToken,
            @Nullable OAuth2RefreshToken refreshToken, DefaultOAuth2TokenContext.@Nullable Builder context) {

        static Exchanged answer(DeviceAuthorizations.Poll poll) {
            return new Exchanged(poll, null, null, null);
        }
    }

    private Exchanged exchange(OAuth2DeviceCodeAuthenticationToken grant, RegisteredClient client,
            @Nullable Proof proof) {
        DeviceAuthorizations.Poll poll = devices.poll(grant.getDeviceCode(), client.getClientId());
        if (poll.outcome() != DeviceAuthorizations.Outcome.APPROVED) {
            return Exchanged.answer(poll);
        }
        DeviceAuthorization run = poll.run();
        if (run.scopes().contains(OidcScopes.OPENID) && !signingKeys.canSign()) {
            throw TokenError.OIDC_KEY_MISSING.exception();
        }
        // the approving account must still be enabled: else the run is refused and stays unspent
        AccountPrincipal user = accounts.of(run.userId(), run.clientId(), UNKNOWN);
        if (!devices.spend(run)) {
            return Exchanged.answer(new DeviceAuthorizations.Poll(DeviceAuthorizations.Outcome.UNKNOWN, run));
        }
        Instant now = clock.instant();
        AuthorizationRecord record = AuthorizationRecord.forDevice(run.getId(), client.getClientId(), run.scopes(),
                new AuthorizationRecord.Login(user.id(), run.authTime(), new LinkedHashSet<>(run.amr())),
                run.createdAt(), run.expiresAt(), now);
        authorizations.saveRecord(record);
        OAuth2Authorization authorization = DatabaseAuthorizationService.toAuthorization(record, client, user, null);
        DefaultOAuth2TokenContext.Builder context = DefaultOAuth2TokenContext.builder()
                .registeredClient(client)
                .principal(authorization.getAttribute(Principal.class.getName()))
                .authorizationServerContext(AuthorizationServerContextHolder.getContext())
                .authorization(authorization)
                .authorizedScopes(run.scopes())
                .authorizationGrantType(AuthorizationGrantType.DEVICE_CODE)
                .authorizationGrant(grant);
        if (proof != null) {
            context.put(OAuth2TokenContext.DPOP_PROOF_KEY, proof.jwt());
        }
        var accessToken = (OAuth2AccessToken) tokenGenerator.generate(context.tokenType(OAuth2TokenType.ACCESS_TOKEN).build());
        // a device application is a public client: a refresh token always (RefreshTokenGenerator)
        var refreshToken = (OAuth2RefreshToken) tokenGenerator.generate(context.tokenType(OAuth2TokenType.REFRESH_TOKEN).build());
        return new Exchanged(poll, accessToken, refreshToken, context);
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2DeviceCodeAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
