package com.example.identity.support;

import java.net.URI;
import java.time.Instant;
import java.util.Date;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.id.JWTID;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;

/**
 * A client's DPoP key (RFC 9449) and its proofs, made by the Nimbus OAuth 2.0 SDK's {@link DefaultDPoPProofFactory},
 * as a Java client would: an EC P-256 key signing ES256 proofs with a fresh {@code jti} and {@code iat} each time,
 * {@code ath} when a token is presented. The forms with an explicit {@code jti} and {@code iat} make the bad proofs
 * of the tests (a replay, a stale one).
 */
public final class DPoPKey {

    private final ECKey key;
    private final DefaultDPoPProofFactory proofs;

    private DPoPKey(ECKey key) throws JOSEException {
        this.key = key;
        this.proofs = new DefaultDPoPProofFactory(key, JWSAlgorithm.ES256);
    }

    /** A new key pair, as a launcher makes one at its first start. */
    public static DPoPKey generate() {
        try {
            return new DPoPKey(new ECKeyGenerator(Curve.P_256).generate());
        }
        catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JWK SHA-256 thumbprint (RFC 7638) of the public key: what a bound token's {@code cnf.jkt} says. */
    public String thumbprint() {
        try {
            return key.toPublicJWK().computeThumbprint().toString();
        }
        catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A proof for a token request: {@code method} to {@code url}, no access token. */
    public String proof(String method, String url) {
        try {
            return proofs.createDPoPJWT(method, URI.create(url)).serialize();
        }
        catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A proof for a request to a protected resource presenting {@code accessToken} ({@code ath}). */
    public String proof(String method, String url, String accessToken) {
        try {
            return proofs.createDPoPJWT(method, URI.create(url), new DPoPAccessToken(accessToken)).serialize();
        }
        catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A proof with the given {@code jti} and {@code iat}; {@code accessToken} may be null (a token request). */
    public String proof(String jti, String method, String url, Instant issuedAt, String accessToken) {
        try {
            return proofs.createDPoPJWT(new JWTID(jti), method, URI.create(url), Date.from(issuedAt),
                    accessToken == null ? null : new DPoPAccessToken(accessToken)).serialize();
        }
        catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
