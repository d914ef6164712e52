package com.example.identity.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The redirect URIs a native application may register and use (decisions §16, RFC 8252 §7.1 and §7.3). */
class RedirectUriRuleTest {

    static final String LOOPBACK_OR_SCHEME = "redirect_uri inválido: una aplicación nativa usa http://127.0.0.1 o "
            + "http://[::1] (RFC 8252 §7.3), o un esquema propio como com.example.juego:/callback";
    static final String ONE_SLASH = "redirect_uri inválido: tras un esquema propio va una sola barra y la ruta, "
            + "como com.example.juego:/callback (RFC 8252 §7.1)";

    @Test
    void loopbackLiteralsAndReverseDomainSchemesWithOneSlashAreAccepted() {
        for (String accepted : new String[] { "http://127.0.0.1/callback", "http://127.0.0.1:8765/cb", "http://[::1]/cb",
                "com.example.juego:/callback", "com.example.juego:/", "io.juego.app:/oauth2/vuelta?x=1" }) {
            assertThat(RedirectUriRule.nativeProblemWith(accepted)).as(accepted).isEmpty();
        }
    }

    @Test
    void localhostByNameHttpsAndSchemesWithoutADotAreRefused() {
        for (String refused : new String[] { "http://localhost/cb", "http://localhost:8765/cb", "https://juego.example/cb",
                "http://192.168.1.2/cb", "juego:/cb", "com:/cb" }) {
            assertThat(RedirectUriRule.nativeProblemWith(refused)).as(refused).hasValue(LOOPBACK_OR_SCHEME);
        }
    }

    @Test
    void aPrivateUseSchemeNeedsOneSlashAndThePath() {
        for (String refused : new String[] { "com.example.juego:callback", "com.example.juego:callback/x", "com.example.juego://callback",
                "com.example.juego:///callback" }) {
            assertThat(RedirectUriRule.nativeProblemWith(refused)).as(refused).hasValue(ONE_SLASH);
        }
    }

    @Test
    void aRegisteredLoopbackUriMatchesOnAnyPortOfTheSameAddressAndPathOnly() {
        List<String> v4 = List.of("http://127.0.0.1/cb");
        assertThat(RedirectUriRule.matches(v4, "http://127.0.0.1:1024/cb", true)).isTrue();
        assertThat(RedirectUriRule.matches(v4, "http://127.0.0.1:65535/cb", true)).isTrue();
        assertThat(RedirectUriRule.matches(v4, "http://127.0.0.1/cb", true)).isTrue();
        assertThat(RedirectUriRule.matches(v4, "http://localhost:1024/cb", true)).isFalse();
        assertThat(RedirectUriRule.matches(v4, "http://[::1]:1024/cb", true)).isFalse();
        assertThat(RedirectUriRule.matches(v4, "http://127.0.0.1:1024/otra", true)).isFalse();
        assertThat(RedirectUriRule.matches(v4, "http://127.0.0.1:1024/cb", false)).as("a web application").isFalse();
        List<String> v6 = List.of("http://[::1]/cb");
        assertThat(RedirectUriRule.matches(v6, "http://[::1]:40000/cb", true)).isTrue();
        assertThat(RedirectUriRule.matches(v6, "http://127.0.0.1:40000/cb", true)).isFalse();
    }
}
