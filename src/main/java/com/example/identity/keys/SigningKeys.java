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
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.ResourceLoader;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.security.converter.RsaKeyConverters;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import com.example.identity.IdentityProperties;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;

/**
 * The RS256 keys of decisions §7, loaded once at start and parsed once. With
 * {@code identity.signing-key.location} the key is that PEM file (PKCS#8); without it, a key generated on
 * first start and kept in the database. A location that cannot be read leaves the service without a
 * signing key: it starts, logs an error, publishes {@code {"keys":[]}}, and requests with {@code openid}
 * get {@code oidc_key_missing}.
 */
@Component
public class SigningKeys {

    private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);
    static final int KEY_SIZE = 2048;

    private final @Nullable RSAKey signingKey;
    private final JWKSet published;

    SigningKeys(IdentityProperties properties, ResourceLoader resources, SigningKeyRepository repository,
            TransactionTemplate transactions, Clock clock) {
        String location = properties.signingKey().location();
        List<RSAKey> keys = location == null || location.isBlank()
                ? fromDatabase(repository, transactions, clock)
                : fromPem(resources, location);
        this.signingKey = keys.isEmpty() ? null : keys.get(0);
        this.published = new JWKSet(new ArrayList<>(keys));
    }

    /** The key that signs new {@code id_token}s, or null when none is usable. */
    public @Nullable RSAKey signingKey() {
        return signingKey;
    }

    public boolean canSign() {
        return signingKey != null;
    }

    /** Every key that may still verify a live {@code id_token}, private parts included (never published as such). */
    public JWKSet keys() {
        return published;
    }

    private static List<RSAKey> fromPem(ResourceLoader resources, String location) {
        try (InputStream in = resources.getResource(location).getInputStream()) {
            RSAKey key = toJwk(RsaKeyConverters.pkcs8().convert(in));
            log.info("Signing key {} loaded from identity.signing-key.location", key.getKeyID());
            return List.of(key);
        }
        catch (Exception e) {
            // No key material or path details beyond the configured location in the log.
            log.error("identity.signing-key.location={} cannot be read as a PKCS#8 PEM RSA private key ({}); "
                    + "id_tokens cannot be issued: requests with scope openid get oidc_key_missing", location,
                    e.getClass().getSimpleName());
            return List.of();
        }
    }

    private static List<RSAKey> fromDatabase(SigningKeyRepository repository, TransactionTemplate transactions,
            Clock clock) {
        List<SigningKeyRecord> stored = repository.findByRetiredAtIsNullOrderByCreatedAtDesc();
        if (stored.isEmpty()) {
            try {
                RSAKey generated = new RSAKeyGenerator(KEY_SIZE).generate();
                RSAKey key = toJwk(generated.toRSAPrivateKey());
                String pem = toPem(key.toRSAPrivateKey());
                transactions.executeWithoutResult(
                        status -> repository.saveAndFlush(new SigningKeyRecord(key.getKeyID(), pem, clock.instant())));
                log.info("Generated signing key {} and stored it in the database", key.getKeyID());
            }
            catch (DataIntegrityViolationException raced) {
                log.info("Another instance stored a signing key first; using the stored keys");
            }
            catch (JOSEException e) {
                throw new IllegalStateException("cannot generate an RSA key", e);
            }
            stored = repository.findByRetiredAtIsNullOrderByCreatedAtDesc();
        }
        List<RSAKey> keys = new ArrayList<>();
        for (SigningKeyRecord record : stored) {
            keys.add(toJwk(RsaKeyConverters.pkcs8()
                    .convert(new ByteArrayInputStream(record.privateKeyPem().getBytes(StandardCharsets.US_ASCII)))));
        }
        return keys;
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
