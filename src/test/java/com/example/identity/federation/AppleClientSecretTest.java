package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.LinkedMultiValueMap;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jwt.SignedJWT;

/** Sign in with Apple's client secret: an ES256 JWT with Apple's documented header and claims, fresh per request. */
class AppleClientSecretTest {

    static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    static KeyPair p256() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    static String pem(KeyPair pair) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    static AppleClientSecret secret(KeyPair pair) {
        var settings = new FederationSettings.Apple("apple", "TEAM123456", "KEY7890ABC",
                new ByteArrayResource(pem(pair).getBytes(StandardCharsets.US_ASCII)), Duration.ofMinutes(5));
        return new AppleClientSecret(settings, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void theSecretIsAnEs256JwtSignedWithTheConfiguredKeyWithApplesHeaderAndClaims() throws Exception {
        KeyPair pair = p256();

        SignedJWT jwt = SignedJWT.parse(secret(pair).forClient("com.example.juegos.web"));

        assertThat(jwt.verify(new ECDSAVerifier((ECPublicKey) pair.getPublic()))).isTrue();
        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.ES256);
        assertThat(jwt.getHeader().getKeyID()).isEqualTo("KEY7890ABC");
        var claims = jwt.getJWTClaimsSet();
        assertThat(claims.getIssuer()).isEqualTo("TEAM123456");
        assertThat(claims.getSubject()).isEqualTo("com.example.juegos.web");
        assertThat(claims.getAudience()).containsExactly("https://appleid.apple.com");
        assertThat(claims.getIssueTime().toInstant()).isEqualTo(NOW);
        assertThat(claims.getExpirationTime().toInstant()).isEqualTo(NOW.plus(Duration.ofMinutes(5)));
        // another key does not verify it
        assertThat(jwt.verify(new ECDSAVerifier((ECPublicKey) p256().getPublic()))).isFalse();
    }

    @Test
    void onlyApplesTokenRequestHasItsSecretReplaced() throws Exception {
        AppleClientSecret secret = secret(p256());
        var apple = new LinkedMultiValueMap<String, String>();
        apple.add("client_id", "com.example.juegos.web");
        apple.add("client_secret", "configured-placeholder");
        var other = new LinkedMultiValueMap<String, String>();
        other.add("client_id", "google-client");
        other.add("client_secret", "google-secret");

        FederatedTokenRequests.withAppleSecret(apple, "com.example.juegos.web", secret);
        FederatedTokenRequests.withAppleSecret(other, "com.example.juegos.web", secret);

        assertThat(apple.get("client_secret")).hasSize(1);
        assertThat(SignedJWT.parse(apple.getFirst("client_secret")).getJWTClaimsSet().getSubject())
                .isEqualTo("com.example.juegos.web");
        assertThat(other.get("client_secret")).isEqualTo(List.of("google-secret"));
    }

    @Test
    void aKeyThatIsNotAnEcPkcs8PemStopsTheStartWithThePropertysName() {
        var settings = new FederationSettings.Apple("apple", "T", "K",
                new ByteArrayResource("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----".getBytes()),
                Duration.ofMinutes(5));
        assertThatThrownBy(() -> new AppleClientSecret(settings, Clock.systemUTC()))
                .hasMessageStartingWith("identity.federation.apple.private-key is not a PKCS#8 PEM EC private key");
        var incomplete = new FederationSettings.Apple("apple", null, "K", null, Duration.ofMinutes(5));
        assertThatThrownBy(() -> new AppleClientSecret(incomplete, Clock.systemUTC()))
                .hasMessage("identity.federation.apple needs team-id, key-id and private-key");
    }

    @Test
    void nestedUserInfoAttributesAreAlsoReadWithDots() {
        var flat = FederatedTokenRequests.flattened(java.util.Map.of("ok", true, "user",
                java.util.Map.of("id", 7, "correo", "a@example.com")));
        assertThat(flat).containsEntry("user.id", 7).containsEntry("user.correo", "a@example.com").containsEntry("ok", true)
                .containsKey("user");
    }
}
