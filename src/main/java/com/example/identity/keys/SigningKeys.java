package com.example.identity.keys;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.core.io.ResourceLoader;
import org.springframework.security.converter.RsaKeyConverters;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.audit.AuditEvent;
import com.example.identity.common.ClusterLock;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;

/**
 * The RS256 keys of decisions §7 and §13.
 *
 * <p>With {@code identity.signing-key.location} the key is that PEM file (PKCS#8), fixed for the life of
 * the process; a location that cannot be read leaves the service without a signing key: it starts, logs
 * an error, publishes {@code {"keys":[]}}, and requests with {@code openid} get {@code oidc_key_missing}.
 *
 * <p>Without it the keys live in the database and are shared by every instance. On an empty database
 * exactly one key is made, under the {@code signing-keys} cluster lock (the first instance makes it, the
 * others wait and read it). A {@linkplain #rotate() rotation} adds a key that is published at once and
 * signs from {@code identity.signing-key.rotation-delay} later; the key it replaces signs until then and
 * stays published until every {@code id_token} it signed has expired ({@link #ID_TOKEN_LIFETIME} plus
 * {@link #CLOCK_SKEW}), then is deleted. Each instance re-reads the keys when the lock's version
 * changes, which it checks every {@link #REFRESH_INTERVAL} (one indexed read), so a key added anywhere
 * is published everywhere within a second; which key signs is decided by the clock, not by the refresh.
 */
@Component
public class SigningKeys implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);
    static final int KEY_SIZE = 2048;
    static final String LOCK = "signing-keys";
    /** Spring Authorization Server's {@code JwtGenerator} gives every {@code id_token} 30 minutes. */
    public static final Duration ID_TOKEN_LIFETIME = Duration.ofMinutes(30);
    /** Clocks of instances may disagree by this much: a retired key is kept that much longer. */
    public static final Duration CLOCK_SKEW = Duration.ofMinutes(5);
    static final Duration REFRESH_INTERVAL = Duration.ofMillis(500);

    /** A key as this instance knows it; {@code retiredAt} null while it has no successor. */
    public record KeyState(RSAKey jwk, Instant createdAt, Instant activatesAt, @Nullable Instant retiredAt) {

        boolean signsAt(Instant now) {
            return !activatesAt.isAfter(now) && (retiredAt == null || retiredAt.isAfter(now));
        }

        boolean publishedAt(Instant now) {
            return retiredAt == null || retiredAt.plus(ID_TOKEN_LIFETIME).plus(CLOCK_SKEW).isAfter(now);
        }

        public String kid() {
            return jwk.getKeyID();
        }
    }

    private record Snapshot(long version, List<KeyState> keys) {
    }

    private final SigningKeyRepository repository;
    private final ClusterLock locks;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final Duration rotationDelay;
    private final boolean fromDatabase;
    private volatile Snapshot snapshot;
    private final @Nullable ScheduledExecutorService refresher;

    SigningKeys(IdentityProperties properties, ResourceLoader resources, SigningKeyRepository repository,
            ClusterLock locks, Clock clock, ApplicationEventPublisher events) {
        this.events = events;
        this.repository = repository;
        this.locks = locks;
        this.clock = clock;
        this.rotationDelay = properties.signingKey().rotationDelay();
        String location = properties.signingKey().location();
        this.fromDatabase = location == null || location.isBlank();
        if (fromDatabase) {
            createFirstKeyIfNone();
            this.snapshot = load();
            this.refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "signing-keys-refresh");
                thread.setDaemon(true);
                return thread;
            });
            long every = REFRESH_INTERVAL.toMillis();
            this.refresher.scheduleWithFixedDelay(this::refreshQuietly, every, every, TimeUnit.MILLISECONDS);
        }
        else {
            this.snapshot = new Snapshot(0, fromPem(resources, location, clock.instant()));
            this.refresher = null;
        }
    }

    /** The key that signs new {@code id_token}s now, or null when none is usable. */
    public @Nullable RSAKey signingKey() {
        Instant now = clock.instant();
        for (KeyState key : snapshot.keys()) { // newest activation first
            if (key.signsAt(now)) {
                return key.jwk();
            }
        }
        return null;
    }

    public boolean canSign() {
        return signingKey() != null;
    }

    /**
     * Every key that may still verify a live {@code id_token}, and a key about to sign: private parts
     * included (the JWKS endpoint publishes only the public ones).
     */
    public JWKSet keys() {
        Instant now = clock.instant();
        List<JWK> published = new ArrayList<>();
        for (KeyState key : snapshot.keys()) {
            if (key.publishedAt(now)) {
                published.add(key.jwk());
            }
        }
        return new JWKSet(published);
    }

    /** The keys this instance knows, the one that signs last first (the admin page shows them). */
    public List<KeyState> states() {
        return snapshot.keys();
    }

    /** True when keys come from the database and can be rotated (not with a PEM location). */
    public boolean rotatable() {
        return fromDatabase;
    }

    public Duration rotationDelay() {
        return rotationDelay;
    }

    /**
     * Adds a key that is published at once and signs from {@code now + rotation-delay}; the current key
     * signs until then and is retired at that moment.
     *
     * @return the new key
     * @throws IllegalStateException when keys come from a PEM location, or a rotation is still pending
     */
    public KeyState rotate() {
        if (!fromDatabase) {
            throw new IllegalStateException("the signing key comes from identity.signing-key.location");
        }
        RSAKey key = generate();
        String pem = toPem(privateKeyOf(key));
        KeyState added = locks.holding(LOCK, () -> {
            Instant now = clock.instant();
            List<SigningKeyRecord> stored = repository.findAllByOrderByActivatesAtDesc();
            if (stored.stream().anyMatch(k -> k.activatesAt().isAfter(now))) {
                throw new RotationPendingException();
            }
            Instant activatesAt = now.plus(rotationDelay);
            stored.stream().filter(k -> k.retiredAt() == null).forEach(k -> k.retireAt(activatesAt));
            repository.save(new SigningKeyRecord(key.getKeyID(), pem, now, activatesAt));
            repository.flush();
            locks.bumpVersion(LOCK);
            return new KeyState(key, now, activatesAt, null);
        });
        this.snapshot = load();
        log.info("Signing key rotation: key {} published, signs from {}", added.kid(), added.activatesAt());
        events.publishEvent(new AuditEvent(AuditEvent.Type.SIGNING_KEY_ROTATED,
                "clave " + added.kid() + ", firma desde " + added.activatesAt()));
        return added;
    }

    /** A rotation was asked for while the key of the previous one is not signing yet. */
    public static final class RotationPendingException extends IllegalStateException {
        RotationPendingException() {
            super("the key of the previous rotation is not signing yet");
        }
    }

    /** Re-reads the keys if another instance (or this one) changed them, and drops expired ones. */
    void refresh() {
        Instant now = clock.instant();
        Snapshot current = snapshot;
        if (current.keys().stream().anyMatch(k -> !k.publishedAt(now))) {
            locks.holding(LOCK, () -> {
                int dropped = repository.deleteRetiredBefore(now.minus(ID_TOKEN_LIFETIME).minus(CLOCK_SKEW));
                if (dropped > 0) {
                    locks.bumpVersion(LOCK);
                    log.info("Dropped {} retired signing key(s): every id_token they signed has expired", dropped);
                }
                return null;
            });
        }
        if (locks.version(LOCK) != current.version()) {
            snapshot = load();
        }
    }

    private void refreshQuietly() {
        try {
            refresh();
        }
        catch (RuntimeException e) {
            // database briefly unreachable: the keys in memory stay valid, the next round tries again
            log.debug("Signing keys not refreshed: {}", e.toString());
        }
    }

    @Override
    public void destroy() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }

    private void createFirstKeyIfNone() {
        if (!repository.findAllByOrderByActivatesAtDesc().isEmpty()) {
            return;
        }
        RSAKey key = generate(); // before taking the lock: 0.2-2 s that other instances need not wait for
        String pem = toPem(privateKeyOf(key));
        boolean created = locks.holding(LOCK, () -> {
            if (!repository.findAllByOrderByActivatesAtDesc().isEmpty()) {
                return false; // another instance made the first key while this one generated
            }
            Instant now = clock.instant();
            repository.saveAndFlush(new SigningKeyRecord(key.getKeyID(), pem, now, now));
            locks.bumpVersion(LOCK);
            return true;
        });
        log.info(created ? "Generated signing key {} and stored it in the database"
                : "Another instance stored the first signing key; using it (generated {} discarded)", key.getKeyID());
    }

    private Snapshot load() {
        long version = locks.version(LOCK); // read first: a change after it is seen by the next refresh
        List<KeyState> keys = new ArrayList<>();
        for (SigningKeyRecord record : repository.findAllByOrderByActivatesAtDesc()) {
            RSAKey jwk = toJwk(RsaKeyConverters.pkcs8()
                    .convert(new ByteArrayInputStream(record.privateKeyPem().getBytes(StandardCharsets.US_ASCII))));
            keys.add(new KeyState(jwk, record.createdAt(), record.activatesAt(), record.retiredAt()));
        }
        return new Snapshot(version, List.copyOf(keys));
    }

    private static List<KeyState> fromPem(ResourceLoader resources, String location, Instant now) {
        try (InputStream in = resources.getResource(location).getInputStream()) {
            RSAKey key = toJwk(RsaKeyConverters.pkcs8().convert(in));
            log.info("Signing key {} loaded from identity.signing-key.location", key.getKeyID());
            return List.of(new KeyState(key, now, Instant.EPOCH, null));
        }
        catch (Exception e) {
            // No key material or path details beyond the configured location in the log.
            log.error("identity.signing-key.location={} cannot be read as a PKCS#8 PEM RSA private key ({}); "
                    + "id_tokens cannot be issued: requests with scope openid get oidc_key_missing", location,
                    e.getClass().getSimpleName());
            return List.of();
        }
    }

    private static RSAKey generate() {
        try {
            return toJwk(new RSAKeyGenerator(KEY_SIZE).generate().toRSAPrivateKey());
        }
        catch (JOSEException e) {
            throw new IllegalStateException("cannot generate an RSA key", e);
        }
    }

    private static RSAPrivateKey privateKeyOf(RSAKey key) {
        try {
            return key.toRSAPrivateKey();
        }
        catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JWK with its RFC 7638 thumbprint as {@code kid}, usage {@code sig}, algorithm RS256. */
    static RSAKey toJwk(RSAPrivateKey privateKey) {
        try {
            if (!(privateKey instanceof RSAPrivateCrtKey crt)) {
                throw new IllegalArgumentException("the RSA private key has no public exponent");
            }
            RSAPublicKey publicKey = (RSAPublicKey) KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(crt.getModulus(), crt.getPublicExponent()));
            if (publicKey.getModulus().bitLength() < KEY_SIZE) {
                throw new IllegalArgumentException("RSA keys must have at least " + KEY_SIZE + " bits");
            }
            RSAKey withoutId = new RSAKey.Builder(publicKey).privateKey(privateKey).build();
            return new RSAKey.Builder(withoutId)
                    .keyID(withoutId.computeThumbprint().toString())
                    .keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.RS256)
                    .build();
        }
        catch (JOSEException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String toPem(java.security.PrivateKey key) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded());
        return "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n";
    }
}
