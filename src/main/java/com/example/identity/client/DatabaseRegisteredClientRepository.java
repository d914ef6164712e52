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
    /** How long another instance's rotation or revocation may take to be seen here. */
    static final Duration CACHE_TTL = Duration.ofSeconds(30);
    /** Topic of this cache in {@link CacheInvalidation}; the key is the client id. */
    static final String CACHE = "clients";
    /** The only scopes this server knows (specification §2.7). */
    public static final Set<String> SCOPES = Set.of(OidcScopes.OPENID, OidcScopes.EMAIL, OidcScopes.PROFILE);

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
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_POST)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUri(client.getRedirectUri())
                .scopes(scopes -> scopes.addAll(SCOPES))
                .clientSettings(ClientSettings.builder()
                        .requireProofKey(false)
                        .requireAuthorizationConsent(false)
                        .setting(REVOKED, client.isRevoked())
                        .build())
                .tokenSettings(tokenSettings)
                .build();
    }
}
