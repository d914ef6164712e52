package com.example.identity.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.core.io.DefaultResourceLoader;

import com.example.identity.IdentityProperties;
import com.example.identity.keys.SigningKeys.KeyState;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;

/**
 * When a key signs and when it is published (decisions §7 and §13), the key made of a PEM, and a service
 * whose PEM location cannot be read. Rotation in the database is cluster/TwoInstancesIT's.
 */
class SigningKeysTest {

    static final Instant NOW = Instant.parse("2025-04-01T09:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    static RSAPrivateKey privateKey;
    static RSAKey jwk;

    @BeforeAll
    static void oneKey() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        privateKey = (RSAPrivateKey) generator.generateKeyPair().getPrivate();
        jwk = SigningKeys.toJwk(privateKey);
    }

    static IdentityProperties withLocation(String location) {
        return new Binder(new MapConfigurationPropertySource(Map.of("identity.signing-key.location", location)))
                .bindOrCreate("identity", IdentityProperties.class);
    }

    static SigningKeys fromLocation(String location) {
        return new SigningKeys(withLocation(location), new DefaultResourceLoader(), null, null, CLOCK,
                mock(ApplicationEventPublisher.class));
    }

    @Test
    void aKeySignsFromItsActivationUntilItsRetirement() {
        Instant activates = NOW.plus(Duration.ofMinutes(10));
        KeyState successor = new KeyState(jwk, NOW, activates, null);
        assertThat(successor.signsAt(NOW)).as("published, not signing yet").isFalse();
        assertThat(successor.signsAt(activates)).isTrue();
        assertThat(successor.signsAt(activates.plus(Duration.ofDays(400)))).as("no successor").isTrue();

        KeyState retired = new KeyState(jwk, NOW.minus(Duration.ofDays(30)), NOW.minus(Duration.ofDays(30)), activates);
        assertThat(retired.signsAt(activates.minusMillis(1))).isTrue();
        assertThat(retired.signsAt(activates)).as("its successor signs from then").isFalse();
    }

    @Test
    void aRetiredKeyStaysPublishedUntilEveryIdTokenItSignedHasExpired() {
        Instant retiredAt = NOW;
        KeyState retired = new KeyState(jwk, NOW.minus(Duration.ofDays(1)), NOW.minus(Duration.ofDays(1)), retiredAt);
        Duration kept = SigningKeys.ID_TOKEN_LIFETIME.plus(SigningKeys.CLOCK_SKEW);
        assertThat(kept).isEqualTo(Duration.ofMinutes(35));
        assertThat(retired.publishedAt(retiredAt.plus(kept).minusMillis(1))).isTrue();
        assertThat(retired.publishedAt(retiredAt.plus(kept))).isFalse();
        assertThat(new KeyState(jwk, NOW, NOW, null).publishedAt(NOW.plus(Duration.ofDays(3650)))).isTrue();
    }

    @Test
    void aStoredKeyIsRetiredOnceAndNeverLater() {
        SigningKeyRecord record = new SigningKeyRecord("kid", "pem", NOW, NOW);
        record.retireAt(NOW.plus(Duration.ofMinutes(10)));
        assertThat(record.retiredAt()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
        record.retireAt(NOW.plus(Duration.ofMinutes(20)));
        assertThat(record.retiredAt()).as("a later retirement does not move it").isEqualTo(NOW.plus(Duration.ofMinutes(10)));
        record.retireAt(NOW.plus(Duration.ofMinutes(5)));
        assertThat(record.retiredAt()).as("an earlier one does").isEqualTo(NOW.plus(Duration.ofMinutes(5)));
    }

    @Test
    void aKeyIsAnRs256SignatureJwkNamedByItsThumbprint() throws Exception {
        assertThat(jwk.getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(jwk.getKeyUse()).isEqualTo(KeyUse.SIGNATURE);
        assertThat(jwk.getKeyID()).isEqualTo(jwk.computeThumbprint().toString());
        assertThat(jwk.isPrivate()).isTrue();
    }

    @Test
    void keysShorterThan2048BitsAreRefused() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        RSAPrivateKey weak = (RSAPrivateKey) generator.generateKeyPair().getPrivate();
        assertThatThrownBy(() -> SigningKeys.toJwk(weak)).hasMessageContaining("2048");
    }

    @Test
    void aPemLocationIsTheOneKeyThatAlwaysSignsAndCannotBeRotated(@TempDir Path dir) throws Exception {
        Path pem = dir.resolve("signing.pem");
        Files.writeString(pem, SigningKeys.toPem(privateKey), StandardCharsets.US_ASCII);
        assertThat(Files.readString(pem)).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");

        SigningKeys keys = fromLocation(pem.toUri().toString());

        assertThat(keys.canSign()).isTrue();
        assertThat(keys.signingKey().getKeyID()).isEqualTo(jwk.getKeyID());
        assertThat(keys.keys().getKeys()).hasSize(1);
        assertThat(keys.rotatable()).isFalse();
        assertThatThrownBy(keys::rotate).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("identity.signing-key.location");
        keys.destroy();
    }

    @Test
    void anUnreadableLocationLeavesTheServiceWithoutAKeyInsteadOfFailingToStart(@TempDir Path dir) throws Exception {
        Path notAKey = dir.resolve("not-a-key.pem");
        Files.writeString(notAKey, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        for (String location : new String[] { dir.resolve("missing.pem").toUri().toString(), notAKey.toUri().toString() }) {
            SigningKeys keys = fromLocation(location);
            assertThat(keys.canSign()).as(location).isFalse();
            assertThat(keys.signingKey()).isNull();
            assertThat(keys.keys().getKeys()).as("JWKS {\"keys\":[]}").isEmpty();
        }
    }
}
