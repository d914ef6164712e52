package com.example.identity.crypto;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.security.SignatureException;
import java.security.SignatureSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * RS256 signatures (the id_token's, decisions §7) through the Amazon Corretto Crypto Provider (ACCP: AWS-LC's
 * native RSA, Apache 2.0, on Maven Central), which signs about four times as fast as the JDK's own RSA on
 * the machines measured (docs/performance.md: ~3,990 against ~945 RSA-2048 signatures a second on one core).
 * The signature is the largest single cost of a code exchange, a refresh and a device grant.
 * <p>
 * Only the one algorithm is taken from ACCP: a JCA provider of this service's, first in the JVM's list,
 * offers ACCP's {@code SHA256withRSA} and nothing else, so that Spring Security's {@code NimbusJwtEncoder}
 * (which asks the JCA for {@code SHA256withRSA} without naming a provider) and Nimbus's verifiers use it,
 * while digests, random numbers, key generation and everything else stay the JDK's. The signatures are
 * ordinary PKCS #1 v1.5 RSA signatures: any verifier checks them, and keys stay what they are (the JDK's).
 * <p>
 * ACCP ships its native library for Linux on x86-64 (the classifier this project depends on). Elsewhere,
 * or when it cannot load (a {@code noexec} temporary directory, say), or with
 * {@code identity.signing-key.native-signatures=false}, the JDK signs, as before; {@link #install} says which.
 */
public final class NativeRsaSignatures {

    /** This service's provider name, as {@code Signature.getProvider()} reports it. */
    public static final String PROVIDER = "IdentityNativeRsaSignatures";
    static final String ALGORITHM = "SHA256withRSA";

    private NativeRsaSignatures() {
    }

    /**
     * Puts the native RS256 provider first in the JVM's list ({@code enabled}) or takes it out (not enabled);
     * returns what signs RS256 from now on, for the log. Idempotent.
     */
    public static synchronized String install(boolean enabled) {
        if (!enabled) {
            Security.removeProvider(PROVIDER);
            return "the JDK (identity.signing-key.native-signatures=false)";
        }
        if (Security.getProvider(PROVIDER) != null) {
            return describe(Security.getProvider(PROVIDER));
        }
        Provider.Service accp;
        try {
            accp = accpSignature();
        }
        catch (LinkageError | RuntimeException e) {
            return "the JDK (Amazon Corretto Crypto Provider unavailable: " + e + ")";
        }
        if (accp == null) {
            return "the JDK (Amazon Corretto Crypto Provider unavailable: no native library for "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")";
        }
        Provider provider = new RsaSignatureProvider(accp);
        Security.insertProviderAt(provider, 1);
        return describe(provider);
    }

    private static String describe(Provider provider) {
        return "the Amazon Corretto Crypto Provider (" + provider.getInfo() + ")";
    }

    /** ACCP's {@code SHA256withRSA}, or null when its native library did not load. */
    private static Provider.@Nullable Service accpSignature() {
        var accp = com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.INSTANCE;
        if (accp.getLoadingError() != null) {
            return null;
        }
        accp.assertHealthy();
        return accp.getService("Signature", ALGORITHM);
    }

    /** A provider of one service: ACCP's {@code SHA256withRSA}, under this service's name. */
    private static final class RsaSignatureProvider extends Provider {

        private static final long serialVersionUID = 1L;

        RsaSignatureProvider(Provider.Service accp) {
            super(PROVIDER, "1.0", accp.getProvider().getName() + " " + versionOf(accp.getProvider())
                    + ", SHA256withRSA only");
            putService(new Delegating(this, accp));
        }

        private static String versionOf(Provider provider) {
            return provider instanceof com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider accp
                    ? accp.getVersionStr() + ", " + accp.getAwsLcVersionStr() : provider.getVersionStr();
        }
    }

    /**
     * The ACCP service, offered by {@link RsaSignatureProvider}: key support is ACCP's, and each instance is an ACCP
     * signature that is handed ACCP's own copy of the signing key ({@link KeyTranslatingSignature}).
     */
    private static final class Delegating extends Provider.Service {

        private final Provider.Service target;

        Delegating(Provider provider, Provider.Service target) {
            super(provider, target.getType(), target.getAlgorithm(), target.getClassName(),
                    List.of(), Map.of());
            this.target = target;
        }

        @Override
        public Object newInstance(@Nullable Object constructorParameter) throws NoSuchAlgorithmException {
            return new KeyTranslatingSignature(Signature.getInstance(ALGORITHM, target.getProvider()), target.getProvider());
        }

        @Override
        public boolean supportsParameter(Object parameter) {
            return target.supportsParameter(parameter);
        }
    }

    /**
     * ACCP's signature, given ACCP's copy of the key. Handed a JDK key, ACCP translates it into its own native key at
     * every {@code initSign} (the key's PKCS #8 encoding parsed by AWS-LC): a JFR profile of the code flow (issue 47,
     * docs/performance.md) put that at a fifth of each id_token's signature, for the same key every time. The last
     * key translated is kept, with its translation: the signing key changes only at a rotation. A key that is
     * ACCP's already, and every public key, are passed on as they are.
     */
    private static final class KeyTranslatingSignature extends SignatureSpi {

        /** The last private key translated, and ACCP's copy of it. */
        private record Translated(PrivateKey from, PrivateKey to) {
        }

        private static volatile @Nullable Translated last;

        private final Signature accp;
        private final Provider provider;

        KeyTranslatingSignature(Signature accp, Provider provider) {
            this.accp = accp;
            this.provider = provider;
        }

        private PrivateKey translated(PrivateKey key) throws InvalidKeyException {
            Translated known = last;
            if (known != null && (known.from() == key || known.to() == key)) {
                return known.to();
            }
            try {
                PrivateKey own = (PrivateKey) KeyFactory.getInstance("RSA", provider).translateKey(key);
                last = new Translated(key, own);
                return own;
            }
            catch (NoSuchAlgorithmException e) {
                return key;
            }
        }

        @Override
        protected void engineInitSign(PrivateKey key) throws InvalidKeyException {
            accp.initSign(translated(key));
        }

        @Override
        protected void engineInitSign(PrivateKey key, SecureRandom random) throws InvalidKeyException {
            accp.initSign(translated(key), random);
        }

        @Override
        protected void engineInitVerify(PublicKey key) throws InvalidKeyException {
            accp.initVerify(key);
        }

        @Override
        protected void engineUpdate(byte b) throws SignatureException {
            accp.update(b);
        }

        @Override
        protected void engineUpdate(byte[] data, int offset, int length) throws SignatureException {
            accp.update(data, offset, length);
        }

        @Override
        protected byte[] engineSign() throws SignatureException {
            return accp.sign();
        }

        @Override
        protected boolean engineVerify(byte[] signature) throws SignatureException {
            return accp.verify(signature);
        }

        @Override
        protected void engineSetParameter(AlgorithmParameterSpec params) throws InvalidAlgorithmParameterException {
            accp.setParameter(params);
        }

        @Override
        protected @Nullable AlgorithmParameters engineGetParameters() {
            return accp.getParameters();
        }

        @Override
        @Deprecated
        protected void engineSetParameter(String param, Object value) {
            throw new InvalidParameterException("no parameter " + param);
        }

        @Override
        @Deprecated
        protected Object engineGetParameter(String param) {
            throw new InvalidParameterException("no parameter " + param);
        }
    }
}
