package com.example.identity.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;

class NativeRsaSignaturesTest {

    private static final boolean LINUX_X86_64 = System.getProperty("os.name").startsWith("Linux")
            && System.getProperty("os.arch").matches("amd64|x86_64");

    @AfterEach
    void leaveItAsTheServiceHasIt() {
        NativeRsaSignatures.install(true);
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    @Test
    void rs256GoesThroughTheNativeProviderAndAnyVerifierAcceptsIt() throws Exception {
        assumeTrue(LINUX_X86_64, "ACCP's native library is for Linux on x86-64");
        assertThat(NativeRsaSignatures.install(true)).startsWith("the Amazon Corretto Crypto Provider (")
                .contains("SHA256withRSA only");
        assertThat(Security.getProviders()[0].getName()).isEqualTo(NativeRsaSignatures.PROVIDER);
        KeyPair keys = rsa();
        byte[] data = "cabecera.contenido".getBytes(StandardCharsets.US_ASCII);

        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(keys.getPrivate());
        assertThat(signer.getProvider().getName()).isEqualTo(NativeRsaSignatures.PROVIDER);
        signer.update(data);
        byte[] signature = signer.sign();

        Signature jdk = Signature.getInstance("SHA256withRSA", "SunRsaSign");
        jdk.initVerify(keys.getPublic());
        jdk.update(data);
        assertThat(jdk.verify(signature)).as("PKCS #1 v1.5, deterministic: the JDK checks it").isTrue();
        jdk.initSign(keys.getPrivate());
        jdk.update(data);
        assertThat(jdk.sign()).as("the same bytes as the JDK's own signature").isEqualTo(signature);
    }

    /**
     * The signature is handed ACCP's copy of the key, translated once and kept while the key stays the same (issue 47):
     * signing with one key, another (a rotation) and the first again gives each time the JDK's own signature with that
     * key, which the other public key refuses; and the native provider verifies as well.
     */
    @Test
    void aKeptTranslationNeverSignsWithAnotherKey() throws Exception {
        assumeTrue(LINUX_X86_64, "ACCP's native library is for Linux on x86-64");
        NativeRsaSignatures.install(true);
        KeyPair first = rsa();
        KeyPair second = rsa();
        byte[] data = "cabecera.contenido".getBytes(StandardCharsets.US_ASCII);
        for (KeyPair keys : new KeyPair[] {first, first, second, second, first}) {
            Signature signer = Signature.getInstance("SHA256withRSA");
            signer.initSign(keys.getPrivate());
            assertThat(signer.getProvider().getName()).isEqualTo(NativeRsaSignatures.PROVIDER);
            signer.update(data, 0, 9);
            signer.update(data, 9, data.length - 9);
            byte[] signature = signer.sign();

            Signature jdk = Signature.getInstance("SHA256withRSA", "SunRsaSign");
            jdk.initSign(keys.getPrivate());
            jdk.update(data);
            assertThat(signature).as("the JDK's own signature with this key").isEqualTo(jdk.sign());
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(keys.getPublic());
            verifier.update(data);
            assertThat(verifier.verify(signature)).isTrue();
            verifier.initVerify((keys == first ? second : first).getPublic());
            verifier.update(data);
            assertThat(verifier.verify(signature)).as("not the other key's").isFalse();
        }
    }

    @Test
    void nimbusSignsWithItAndVerifies() throws Exception {
        assumeTrue(LINUX_X86_64, "ACCP's native library is for Linux on x86-64");
        NativeRsaSignatures.install(true);
        KeyPair keys = rsa();
        JWSObject jws = new JWSObject(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k").build(),
                new Payload("{\"sub\":\"user:1\"}"));
        jws.sign(new RSASSASigner(keys.getPrivate()));
        assertThat(JWSObject.parse(jws.serialize())
                .verify(new RSASSAVerifier((java.security.interfaces.RSAPublicKey) keys.getPublic()))).isTrue();
    }

    @Test
    void onlyTheSignatureIsTakenEverythingElseStaysTheJdks() throws Exception {
        assumeTrue(LINUX_X86_64, "ACCP's native library is for Linux on x86-64");
        NativeRsaSignatures.install(true);
        assertThat(Security.getProvider(NativeRsaSignatures.PROVIDER).getServices()).hasSize(1);
        assertThat(MessageDigest.getInstance("SHA-256").getProvider().getName()).isEqualTo("SUN");
        assertThat(new SecureRandom().getProvider().getName()).isNotEqualTo(NativeRsaSignatures.PROVIDER)
                .doesNotContain("Corretto");
        assertThat(KeyPairGenerator.getInstance("RSA").getProvider().getName()).isEqualTo("SunRsaSign");
    }

    @Test
    void switchedOffTheJdkSigns() throws Exception {
        assertThat(NativeRsaSignatures.install(false)).isEqualTo("the JDK (identity.signing-key.native-signatures=false)");
        assertThat(Security.getProvider(NativeRsaSignatures.PROVIDER)).isNull();
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(rsa().getPrivate());
        assertThat(signer.getProvider().getName()).isEqualTo("SunRsaSign");
    }
}
