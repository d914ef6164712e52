package com.example.identity.dpop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.UUID;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Test;
import org.springframework.cache.support.SimpleValueWrapper;

import com.example.identity.IdentityProperties;
import com.example.identity.crypto.Secrets;
import com.example.identity.support.DPoPKey;

/**
 * The checks of a DPoP proof (RFC 9449 §4.3) by {@link DPoPProofs}, with proofs from the Nimbus SDK's proof factory
 * ({@link DPoPKey}) and a few forged by hand; the replay store is a stand-in that says whether it saw the proof.
 * Every refusal gives its own reason, and a refused proof is never recorded (the one write is the last step).
 */
class DPoPProofsTest {

    static final String ISSUER = "https://id.example";
    static final String USERINFO = ISSUER + "/api/userinfo.php";
    static final String TOKEN = ISSUER + "/oauth/token.php";

    final Instant now = Instant.now();
    final SeenProofs seen = mock(SeenProofs.class);
    final DPoPProofs proofs = new DPoPProofs(properties(), seen, Clock.fixed(now, ZoneOffset.UTC));
    final DPoPKey key = DPoPKey.generate();
    final String token = Secrets.randomHex(32);

    static IdentityProperties properties() {
        var properties = mock(IdentityProperties.class);
        when(properties.issuerUrl()).thenReturn(ISSUER);
        return properties;
    }

    @Test
    void aProofForTheBoundTokenPassesAndGivesItsKeysThumbprint() {
        var proof = proofs.verifyResourceRequest(key.proof("GET", USERINFO, token), "GET", "/api/userinfo.php", token,
                key.thumbprint());
        assertThat(proof.jkt()).isEqualTo(key.thumbprint());
        verify(seen).putIfAbsent(any(), any());
    }

    @Test
    void aTokenRequestsProofNeedsNoAccessToken() {
        assertThat(proofs.verifyTokenRequest(key.proof("POST", TOKEN), "/oauth/token.php").jkt())
                .isEqualTo(key.thumbprint());
    }

    @Test
    void aReplayedProofIsRefused() {
        when(seen.putIfAbsent(any(), any())).thenReturn(new SimpleValueWrapper("seen"));
        assertRefused(key.proof("GET", USERINFO, token), InvalidProof.REPLAYED);
    }

    @Test
    void anotherKeysProofIsRefused() {
        assertRefused(DPoPKey.generate().proof("GET", USERINFO, token), InvalidProof.OTHER_KEY);
    }

    @Test
    void aProofForAnotherTokenIsRefused() {
        assertRefused(key.proof("GET", USERINFO, Secrets.randomHex(32)), InvalidProof.ACCESS_TOKEN_HASH);
    }

    @Test
    void aProofWithoutAthIsRefusedAtAResource() {
        assertRefused(key.proof("GET", USERINFO), InvalidProof.ACCESS_TOKEN_HASH);
    }

    @Test
    void aProofForAnotherMethodIsRefused() {
        assertRefused(key.proof("POST", USERINFO, token), InvalidProof.METHOD);
    }

    @Test
    void aProofForAnotherUrlIsRefused() {
        assertRefused(key.proof("GET", ISSUER + "/oauth/userinfo.php", token), InvalidProof.TARGET);
        assertRefused(key.proof("GET", "https://other.example/api/userinfo.php", token), InvalidProof.TARGET);
    }

    @Test
    void aProofOlderOrNewerThanSixtySecondsIsRefused() {
        assertRefused(key.proof(UUID.randomUUID().toString(), "GET", USERINFO, now.minusSeconds(61), token),
                InvalidProof.ISSUED_AT);
        assertRefused(key.proof(UUID.randomUUID().toString(), "GET", USERINFO, now.plusSeconds(61), token),
                InvalidProof.ISSUED_AT);
        assertThat(proofs.verifyResourceRequest(key.proof(UUID.randomUUID().toString(), "GET", USERINFO,
                now.minusSeconds(59), token), "GET", "/api/userinfo.php", token, key.thumbprint()).jkt())
                .isEqualTo(key.thumbprint());
    }

    @Test
    void aProofWithoutJtiIsRefused() throws Exception {
        ECKey ec = new ECKeyGenerator(Curve.P_256).generate();
        var jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(new JOSEObjectType("dpop+jwt"))
                .jwk(ec.toPublicJWK()).build(), new JWTClaimsSet.Builder().claim("htm", "POST").claim("htu", TOKEN)
                .issueTime(java.util.Date.from(now)).build());
        jwt.sign(new ECDSASigner(ec));
        assertThatThrownBy(() -> proofs.verifyTokenRequest(jwt.serialize(), "/oauth/token.php"))
                .isInstanceOf(InvalidProof.class).hasMessage(InvalidProof.NO_JTI);
    }

    @Test
    void somethingElseThanASignedDPoPJwtIsRefused() throws Exception {
        ECKey ec = new ECKeyGenerator(Curve.P_256).generate();
        var claims = new JWTClaimsSet.Builder().jwtID(UUID.randomUUID().toString()).claim("htm", "POST")
                .claim("htu", TOKEN).issueTime(java.util.Date.from(now)).build();
        // typ other than dpop+jwt
        var wrongType = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(JOSEObjectType.JWT)
                .jwk(ec.toPublicJWK()).build(), claims);
        wrongType.sign(new ECDSASigner(ec));
        // the private key in the header (Nimbus will not build that header: by hand)
        String privateHeader = base64("{\"alg\":\"ES256\",\"typ\":\"dpop+jwt\",\"jwk\":" + ec.toJSONString() + "}");
        String privateInput = privateHeader + "." + base64(claims.toString());
        String privateJwk = privateInput + "." + new ECDSASigner(ec).sign(new JWSHeader(JWSAlgorithm.ES256),
                privateInput.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        // a shared secret is no proof of possession of a public key
        var hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(new JOSEObjectType("dpop+jwt")).build(),
                claims);
        hmac.sign(new MACSigner(Secrets.randomBytes(32)));
        // signed by another key than the header's
        var forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(new JOSEObjectType("dpop+jwt"))
                .jwk(new ECKeyGenerator(Curve.P_256).generate().toPublicJWK()).build(), claims);
        forged.sign(new ECDSASigner(ec));
        String unsigned = base64("{\"alg\":\"none\",\"typ\":\"dpop+jwt\"}") + "." + base64(claims.toString()) + ".";
        for (String proof : new String[] { wrongType.serialize(), privateJwk, hmac.serialize(),
                forged.serialize(), unsigned, "not a jwt" }) {
            assertThatThrownBy(() -> proofs.verifyTokenRequest(proof, "/oauth/token.php")).as(proof)
                    .isInstanceOf(InvalidProof.class).hasMessage(InvalidProof.MALFORMED);
        }
        verify(seen, never()).putIfAbsent(any(), any());
    }

    private static String base64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private void assertRefused(String proof, String reason) {
        assertThatThrownBy(() -> proofs.verifyResourceRequest(proof, "GET", "/api/userinfo.php", token,
                key.thumbprint())).isInstanceOf(InvalidProof.class).hasMessage(reason);
        if (!reason.equals(InvalidProof.REPLAYED)) {
            verify(seen, never()).putIfAbsent(any(), any());
        }
    }
}
