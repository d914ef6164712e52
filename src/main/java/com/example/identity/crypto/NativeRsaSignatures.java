package com.example.identity.crypto;

import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
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

    /** The ACCP service, offered by {@link RsaSignatureProvider}: instances and key support are ACCP's. */
    private static final class Delegating extends Provider.Service {

        private final Provider.Service target;

        Delegating(Provider provider, Provider.Service target) {
            super(provider, target.getType(), target.getAlgorithm(), target.getClassName(),
                    List.of(), Map.of());
            this.target = target;
        }

        @Override
        public Object newInstance(@Nullable Object constructorParameter) throws NoSuchAlgorithmException {
            return target.newInstance(constructorParameter);
        }

        @Override
        public boolean supportsParameter(Object parameter) {
            return target.supportsParameter(parameter);
        }
    }
}
