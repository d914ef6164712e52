package com.example.identity.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.standardwebhooks.Webhook;

/** The signature against Standard Webhooks' own Java library and the specification's example values. */
class WebhookSignatureTest {

    @Test
    void aSecretIsWhsecAndThirtyTwoBytesInBase64() {
        String secret = WebhookSignature.newSecret();
        assertThat(secret).matches("whsec_[A-Za-z0-9+/]{43}=");
        assertThat(java.util.Base64.getDecoder().decode(secret.substring(6))).hasSize(32);
        assertThat(WebhookSignature.newSecret()).isNotEqualTo(secret);
    }

    @Test
    void theSignatureIsTheLibrarysAndItVerifies() throws Exception {
        String secret = WebhookSignature.newSecret();
        String body = "{\"type\":\"usuario.actualizado\",\"data\":{\"primer_nombre\":\"Ñandú\"}}";
        long now = System.currentTimeMillis() / 1000;
        String header = WebhookSignature.header(secret, "msg_1", now, body);
        Webhook library = new Webhook(secret);
        assertThat(header).isEqualTo(library.sign("msg_1", now, body));
        library.verify(body, Map.of("webhook-id", List.of("msg_1"), "webhook-timestamp", List.of(Long.toString(now)),
                "webhook-signature", List.of(header)));
    }

    @Test
    void theSpecificationsExample() {
        // the example of the Standard Webhooks specification's reference libraries' tests
        String header = WebhookSignature.header("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                1614265330, "{\"test\": 2432232314}");
        assertThat(header).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }
}
