package com.example.identity.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookUrlRuleTest {

    @ParameterizedTest
    @ValueSource(strings = { "https://juego.example/webhooks", "https://juego.example:8443/a?b=c", "https://203.0.113.7/w",
            "https://[2001:db8::1]/w" })
    void accepted(String url) {
        assertThat(WebhookUrlRule.problemWith(url, false)).isEmpty();
    }

    @Test
    void httpOnlyToThisMachineAndOnlyWhenAllowed() {
        assertThat(WebhookUrlRule.problemWith("http://juego.example/w", false)).contains("webhook_url inválido: usa https");
        assertThat(WebhookUrlRule.problemWith("http://juego.example/w", true)).contains("webhook_url inválido: usa https");
        assertThat(WebhookUrlRule.problemWith("http://127.0.0.1:9000/w", false)).contains("webhook_url inválido: usa https");
        assertThat(WebhookUrlRule.problemWith("http://127.0.0.1:9000/w", true)).isEmpty();
        assertThat(WebhookUrlRule.problemWith("http://localhost/w", true)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = { "https://localhost/w", "https://127.0.0.1/w", "https://0x7f000001/w",
            "https://2130706433/w", "https://10.0.0.5/w", "https://192.168.1.1/w", "https://172.16.0.1/w",
            "https://169.254.169.254/latest", "https://100.64.0.1/w", "https://0.0.0.0/w", "https://[::1]/w",
            "https://[fd00::1]/w", "https://[fe80::1]/w", "https://[::ffff:127.0.0.1]/w", "https://api.localhost/w" })
    void notIntoItsOwnNetwork(String url) {
        assertThat(WebhookUrlRule.problemWith(url, false))
                .contains("webhook_url inválido: no puede apuntar a una dirección local o privada");
    }

    @Test
    void theRestOfTheShape() {
        // java.net.URI reads no host in it: refused all the same
        assertThat(WebhookUrlRule.problemWith("https://127.1/w", false)).isPresent();
        assertThat(WebhookUrlRule.problemWith("ftp://juego.example/w", false)).contains("webhook_url inválido: usa https");
        assertThat(WebhookUrlRule.problemWith("/w", false)).contains("webhook_url inválido: debe ser una URL absoluta");
        assertThat(WebhookUrlRule.problemWith("https://juego.example/w#x", false))
                .contains("webhook_url inválido: no puede llevar fragmento (#) ni usuario");
        assertThat(WebhookUrlRule.problemWith("https://a:b@juego.example/w", false))
                .contains("webhook_url inválido: no puede llevar fragmento (#) ni usuario");
        assertThat(WebhookUrlRule.problemWith("https://juego.example/ w", false))
                .contains("webhook_url inválido: no es una URI válida");
        assertThat(WebhookUrlRule.problemWith("https://juego.example/" + "a".repeat(2000), false))
                .contains("webhook_url demasiado largo");
    }
}
