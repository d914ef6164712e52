package com.example.identity.federation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * Sign in with Apple's {@code client_secret} (Apple's "Creating a client secret"): a JWT signed ES256 with the
 * developer's key, header {@code kid}, claims {@code iss} (team id), {@code iat}, {@code exp} (at most 6 months
 * later; here {@code identity.federation.apple.secret-lifetime}), {@code aud} {@code https://appleid.apple.com}
 * and {@code sub} (the client id, the Services ID). Made anew for every token request
 * ({@link FederatedTokenRequests}), so it never needs rotating.
 */
final class AppleClientSecret {

    static final String AUDIENCE = "https://appleid.apple.com";

    private final FederationSettings.Apple settings;
    private final ECPrivateKey key;
    private final Clock clock;

    AppleClientSecret(FederationSettings.Apple settings, Clock clock) {
        if (settings.teamId() == null || settings.keyId() == null || settings.privateKey() == null) {
            throw new IllegalStateException("identity.federation.apple needs team-id, key-id and private-key");
        }
        this.settings = settings;
        this.clock = clock;
        try {
            this.key = parse(settings.privateKey().getContentAsString(StandardCharsets.US_ASCII));
        }
        catch (IOException e) {
            throw new UncheckedIOException("identity.federation.apple.private-key cannot be read", e);
        }
    }

    /** An EC P-256 private key from the PKCS#8 PEM of Apple's {@code .p8} file. */
    static ECPrivateKey parse(String pem) {
        String base64 = pem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
        try {
            return (ECPrivateKey) KeyFactory.getInstance("EC")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        }
        catch (Exception e) {
            throw new IllegalStateException("identity.federation.apple.private-key is not a PKCS#8 PEM EC private key ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /** A fresh client secret for {@code clientId}. */
    String forClient(String clientId) {
        Instant now = clock.instant();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(settings.teamId())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(settings.secretLifetime())))
                .audience(AUDIENCE)
                .subject(clientId)
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(settings.keyId()).build(), claims);
        try {
            jwt.sign(new ECDSASigner(key));
        }
        catch (JOSEException e) {
            throw new IllegalStateException("Apple client secret not signed: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    String registrationId() {
        return settings.registrationId();
    }
}
