package com.example.identity.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.example.identity.crypto.Secrets;

/**
 * Standard Webhooks' symmetric signature: the secret is {@code whsec_} + base64 of 32 random bytes; a message's
 * signature is {@code v1,} + base64 of HMAC-SHA256, keyed with those bytes, of {@code <webhook-id>.<webhook-timestamp>.<body>}.
 */
final class WebhookSignature {

    static final String PREFIX = "whsec_";

    private WebhookSignature() {
    }

    /** A new secret: {@code whsec_} and 32 random bytes in base64 (from {@link Secrets}' one random source). */
    static String newSecret() {
        return PREFIX + Base64.getEncoder().encodeToString(Secrets.randomBytes(32));
    }

    /** The {@code webhook-signature} header's value for one attempt. */
    static String header(String secret, String webhookId, long timestamp, String body) {
        byte[] key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] signed = mac.doFinal((webhookId + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(signed);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every JVM", e);
        }
    }
}
