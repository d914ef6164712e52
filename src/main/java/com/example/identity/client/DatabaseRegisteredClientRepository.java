package com.example.identity.client;

import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.OAuth2TokenFormat;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.common.CacheInvalidation;
import com.example.identity.common.LookupCache;

/**
 * Spring Authorization Server's view of the {@code oauth_clients} table. Every application is a
 * confidential client of the authorization code grant with {@code client_secret_basic} and
 * {@code client_secret_post}, scopes {@code openid email profile}, no consent screen, and PKCE honoured
 * when sent but not required (decisions §2). Applications are registered through {@link ClientService},
 * never through {@link #save}.
 */
@Component
public class DatabaseRegisteredClientRepository implements RegisteredClientRepository {

    /** Client setting that marks a revoked application; the endpoints answer {@code client_revoked}. */
    public static final String REVOKED = "identity.client.revoked";
    /** Client setting: a first-party application, which shows no consent page (decisions §12.6). */
    public static final String FIRST_PARTY = "identity.client.first-party";
    /** Client setting: the id of the account that registered the application, for the consent page. */
    public static final String OWNER = "identity.client.owner";
    /** Client setting: the application's type, {@link ClientType#value()}. */
    public static final String TYPE = "identity.client.type";
    /** Client setting: its authorization requests must be pushed first ({@code par_obligatorio}, decisions §28). */
    public static final String PAR_REQUIRED = "identity.client.par-required";
    /** Client setting: its tokens must be bound to a DPoP key ({@code dpop_obligatorio}, decisions §28). */
    public static final String DPOP_REQUIRED = "identity.client.dpop-required";
    /** Client setting: the application accepts guest players (decisions §24). */
    public static final String GUESTS = "identity.client.guests";
    /** Client setting: the application has a back-channel logout URI (decisions §20), so its codes' sids are kept. */
    public static final String BACK_CHANNEL_LOGOUT = "identity.client.back-channel-logout";
    /** How long another instance's rotation or revocation may take to be seen here. */
    static final Duration CACHE_TTL = Duration.ofSeconds(30);
    /** Topic of this cache in {@link CacheInvalidation}; the key is the client id. */
    static final String CACHE = "clients";
    /** The scope that brings a refresh token (decisions §12.4, OIDC Core §11). */
    public static final String OFFLINE_ACCESS = "offline_access";
    /** The only scopes this server knows (specification §2.7, and {@code offline_access} of decisions §12.4). */
    public static final Set<String> SCOPES = Set.of(OidcScopes.OPENID, OidcScopes.EMAIL, OidcScopes.PROFILE,
            OFFLINE_ACCESS);

    private final OAuthClientRepository clients;
    private final CacheInvalidation invalidation;
    private final TokenSettings tokenSettings;
    /**
     * Known clients by client id, for the authorization and token endpoints' hot paths. Bounded; rotation
     * and revocation evict at once here and on every other instance at commit ({@link CacheInvalidation});
     * {@link #CACHE_TTL} is the backstop. Unknown ids are not cached.
     */
    private final LookupCache<String, RegisteredClient> cache = new LookupCache<>(10_000, CACHE_TTL);

    DatabaseRegisteredClientRepository(OAuthClientRepository clients, IdentityProperties properties,
            CacheInvalidation invalidation) {
        this.clients = clients;
        this.invalidation = invalidation;
        invalidation.register(CACHE, cache::evictNow, cache::clear);
        this.tokenSettings = TokenSettings.builder()
                .authorizationCodeTimeToLive(properties.authorizationCode().ttl())
                .accessTokenTimeToLive(properties.accessToken().ttl())
                .accessTokenFormat(OAuth2TokenFormat.REFERENCE)
                .refreshTokenTimeToLive(properties.refreshToken().ttl())
                // rotated on every use, with reuse detection (oauth/token/RefreshTokenExchange)
                .reuseRefreshTokens(false)
                .idTokenSignatureAlgorithm(SignatureAlgorithm.RS256)
                .build();
    }

    @Override
    public void save(RegisteredClient registeredClient) {
        throw new UnsupportedOperationException("applications are registered through ClientService");
    }

    /**
     * The {@link RegisteredClient#getId() id} is the {@code client_id}. No transaction of its own: a cached
     * client costs none, and a miss is one repository read.
     */
    @Override
    public @Nullable RegisteredClient findById(String id) {
        return findByClientId(id);
    }

    @Override
    public @Nullable RegisteredClient findByClientId(String clientId) {
        if (clientId == null || clientId.isEmpty() || clientId.length() > 100) {
            return null;
        }
        // not kept when a rotation or revocation ran meanwhile
        return cache.get(clientId, id -> clients.findByClientId(id).map(this::toRegisteredClient).orElse(null));
    }

    /** Forgets a client whose secret or state is changing, now and when the transaction completes. */
    void evict(String clientId) {
        invalidation.evict(CACHE, clientId); // here now and after the transaction; on other instances at commit
    }

    /** Whether the application is a native (public) one (decisions §16). */
    public static boolean isNative(RegisteredClient client) {
        return ClientType.NATIVE.value().equals(client.getClientSettings().getSetting(TYPE));
    }

    /** Whether the application is a console or TV of the device flow (decisions §16, RFC 8628). */
    public static boolean isDevice(RegisteredClient client) {
        return ClientType.DEVICE.value().equals(client.getClientSettings().getSetting(TYPE));
    }

    /** Whether the application is a game's back end of the client credentials grant (decisions §21). */
    public static boolean isServer(RegisteredClient client) {
        return ClientType.SERVER.value().equals(client.getClientSettings().getSetting(TYPE));
    }

    /** The id of the account that registered the application. */
    public static long ownerOf(RegisteredClient client) {
        return ((Number) client.getClientSettings().getSetting(OWNER)).longValue();
    }

    /** Whether the application is a public client (native or device): no secret, its client id alone. */
    public static boolean isPublic(RegisteredClient client) {
        return isNative(client) || isDevice(client);
    }

    /** Whether {@code redirectUri} is one of the application's (a native one: any port on loopback). */
    public static boolean hasRedirectUri(RegisteredClient client, String redirectUri) {
        return RedirectUriRule.matches(client.getRedirectUris(), redirectUri, isNative(client));
    }

    /** Whether the application's authorization requests must come through {@code /oauth/par.php} (RFC 9126). */
    public static boolean requiresPushedRequests(RegisteredClient client) {
        return Boolean.TRUE.equals(client.getClientSettings().getSetting(PAR_REQUIRED));
    }

    /** Whether every token request of the application must carry a DPoP proof (RFC 9449). */
    public static boolean requiresDPoP(RegisteredClient client) {
        return Boolean.TRUE.equals(client.getClientSettings().getSetting(DPOP_REQUIRED));
    }

    /** Whether the application accepts guest players ({@code POST /oauth/invitado.php}, decisions §24). */
    public static boolean acceptsGuests(RegisteredClient client) {
        return Boolean.TRUE.equals(client.getClientSettings().getSetting(GUESTS));
    }

    /**
     * Whether the application is told when a login session ends (a {@code backchannel_logout_uri}): the authorizations
     * of its codes then outlive their exchange, for their {@code sid} (backchannel/LogoutSessions, decisions D48).
     */
    public static boolean hasBackChannelLogout(RegisteredClient client) {
        return Boolean.TRUE.equals(client.getClientSettings().getSetting(BACK_CHANNEL_LOGOUT));
    }

    public static boolean isFirstParty(RegisteredClient client) {
        return Boolean.TRUE.equals(client.getClientSettings().getSetting(FIRST_PARTY));
    }

    public static boolean isRevoked(RegisteredClient client) {
        return Boolean.TRUE.equals(client.getClientSettings().getSetting(REVOKED));
    }

    private RegisteredClient toRegisteredClient(OAuthClient client) {
        return RegisteredClient.withId(client.getClientId())
                .clientId(client.getClientId())
                .clientName(client.getName())
                .clientIdIssuedAt(client.getCreatedAt())
                // The SHA-256 digest: checked by ClientCredentialsChecks, never by a PasswordEncoder.
                .clientSecret(client.getSecretDigest())
                .clientAuthenticationMethods(methods -> {
                    if (client.getType().isPublic()) {
                        // RFC 8252: a native app proves itself with PKCE, not a secret it cannot keep
                        methods.add(ClientAuthenticationMethod.NONE);
                    }
                    else {
                        methods.add(ClientAuthenticationMethod.CLIENT_SECRET_BASIC);
                        methods.add(ClientAuthenticationMethod.CLIENT_SECRET_POST);
                    }
                })
                .authorizationGrantTypes(grants -> {
                    if (client.getType() == ClientType.SERVER) {
                        // a back end authenticates as itself, for itself: no user, no refresh (decisions §21)
                        grants.add(AuthorizationGrantType.CLIENT_CREDENTIALS);
                        return;
                    }
                    // a device application logs in by the device flow only (RFC 8628), the others by a code
                    grants.add(client.getType().hasRedirectUri() ? AuthorizationGrantType.AUTHORIZATION_CODE
                            : AuthorizationGrantType.DEVICE_CODE);
                    grants.add(AuthorizationGrantType.REFRESH_TOKEN);
                    // a player's game asks for tickets for its owner's game servers (decisions §25)
                    grants.add(AuthorizationGrantType.TOKEN_EXCHANGE);
                })
                .redirectUris(uris -> {
                    if (client.getRedirectUri() != null) {
                        uris.add(client.getRedirectUri());
                    }
                })
                // a server's token speaks for no user: no user's scope may be asked for it
                .scopes(scopes -> scopes.addAll(client.getType() == ClientType.SERVER ? Set.of() : SCOPES))
                .clientSettings(ClientSettings.builder()
                        // PKCE S256 required of native applications (decisions §16); honoured when a web one sends it
                        .requireProofKey(client.getType() == ClientType.NATIVE)
                        .setting(TYPE, client.getType().value())
                        .requireAuthorizationConsent(false)
                        .setting(REVOKED, client.isRevoked())
                        .setting(FIRST_PARTY, client.isFirstParty())
                        .setting(OWNER, client.getOwnerId())
                        .setting(PAR_REQUIRED, client.requiresPushedRequests())
                        .setting(DPOP_REQUIRED, client.requiresDPoP())
                        .setting(GUESTS, client.acceptsGuests())
                        .setting(BACK_CHANNEL_LOGOUT, client.getBackChannelLogoutUri() != null)
                        .build())
                .tokenSettings(tokenSettings)
                .build();
    }
}
