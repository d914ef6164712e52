package com.example.identity.support;

import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;

/**
 * A game server checking the tickets its players bring, exactly as docs/game-servers.md shows it in Java with Nimbus
 * JOSE + JWT: the key set fetched over HTTP from {@code /oauth/jwks.json} (5 seconds at most to connect and to
 * read; cached, and fetched again for an unknown {@code kid}, by {@link JWKSourceBuilder}), RS256 only, header
 * {@code typ} {@code ticket+jwt}, {@code iss} this service, {@code aud} the server's own client_id, {@code exp} in the
 * future (60 seconds of clock skew, Nimbus's default), the claims the page names present; then each accepted
 * {@code jti} kept until it has expired (with that skew), so that a ticket is accepted once. The one difference from
 * the page: the server's clock is a parameter, so that a test can play the server's time later than the service's.
 */
public final class GameServer {

    /** How long after {@code exp} a ticket may still pass: Nimbus's default clock skew. */
    static final Duration SKEW = Duration.ofSeconds(DefaultJWTClaimsVerifier.DEFAULT_MAX_CLOCK_SKEW_SECONDS);

    private final ConfigurableJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final Map<String, Instant> acceptedUntil = new ConcurrentHashMap<>();
    private final Supplier<Instant> now;

    /**
     * A server of client_id {@code serverClientId}, on its own clock, fetching the key set from {@code jwksUri}
     * (the page's {@code issuer + "/oauth/jwks.json"}; another address when a test's instance is not at its issuer).
     */
    public GameServer(String issuer, URI jwksUri, String serverClientId, Supplier<Instant> now) {
        this.now = now;
        JWKSource<SecurityContext> keys;
        try {
            keys = JWKSourceBuilder.create(jwksUri.toURL(), new DefaultResourceRetriever(5000, 5000, 51_200)).build();
        }
        catch (MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("ticket+jwt")));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, keys));
        processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(serverClientId,
                new JWTClaimsSet.Builder().issuer(issuer).build(),
                Set.of("sub", "azp", "iat", "exp", "jti", "primer_nombre", "rol", "invitado")) {
            @Override
            protected Date currentTime() {
                return Date.from(now.get());
            }
        });
    }

    /** A server on its own clock, with the service's key set at {@code issuer + "/oauth/jwks.json"}. */
    public GameServer(String issuer, String serverClientId, Supplier<Instant> now) {
        this(issuer, URI.create(issuer + "/oauth/jwks.json"), serverClientId, now);
    }

    /** A server whose clock is this machine's, as on the page. */
    public GameServer(String issuer, String serverClientId) {
        this(issuer, serverClientId, Instant::now);
    }

    /**
     * The player a ticket names, once: a bad signature or {@code typ}, another issuer or audience, an expired ticket
     * or a {@code jti} seen before is refused ({@link BadJOSEException}).
     */
    public JWTClaimsSet accept(String ticket) throws ParseException, BadJOSEException, JOSEException {
        JWTClaimsSet claims = processor.process(ticket, null);
        Instant time = now.get();
        acceptedUntil.values().removeIf(until -> until.isBefore(time));
        Instant until = claims.getExpirationTime().toInstant().plus(SKEW);
        if (acceptedUntil.putIfAbsent(claims.getJWTID(), until) != null) {
            throw new BadJWTException("Ticket ya usado");
        }
        return claims;
    }
}
