package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.example.identity.support.PackagedService;
import com.example.identity.support.WebClient;

/**
 * Issue 39, finding 0: the packaged jar, started as an operator starts it ({@code java -jar}, its own class path),
 * with an OpenID Connect provider configured by {@code issuer-uri} exactly as docs/federated-login.md's Google
 * block shows, starts (the issuer's discovery document is read at start, with Nimbus' OAuth 2.0 SDK) and logs a
 * person in through that provider over HTTP: the redirect to the provider, the provider's login and code, the
 * callback at {@code /login/oauth2/code/google} (code exchange, ID token checked against the provider's JWKS) and a
 * session that reaches {@code /cuenta/}. The provider is a real OpenID Connect provider on 127.0.0.1 served by this
 * test ({@link OtherProvider}: discovery, JWKS, authorization and token endpoints).
 */
class PackagedProviderLoginIT {

    private static final String PASSWORD = "provider-password-1";

    @Test
    void thePackagedServiceStartsWithAnIssuerUriProviderAndLogsAPersonInThroughIt() {
        int port = OtherProvider.freePort();
        String base = "http://localhost:" + port;
        try (OtherProvider provider = OtherProvider.start("127.0.0.1")) {
            var google = provider.application(base + "/login/oauth2/code/google");
            String email = "packaged-" + UUID.randomUUID() + "@example.com";
            provider.person("Paca", email, PASSWORD, true);
            String p = "--spring.security.oauth2.client.";
            try (PackagedService service = PackagedService.start("packaged-provider-login", port, List.of(
                    "--identity.issuer=" + base,
                    p + "registration.google.client-id=" + google.clientId(),
                    p + "registration.google.client-secret=" + google.clientSecret(),
                    p + "registration.google.client-name=Google",
                    p + "registration.google.scope=openid,email,profile",
                    p + "provider.google.issuer-uri=" + provider.issuer))) {
                var there = new WebClient(provider.issuer);
                assertThat(there.login(email, PASSWORD).statusCode()).isEqualTo(302);
                var here = new WebClient(port);
                assertThat(here.get("/login/").body()).contains(">Entrar con Google</a>");

                HttpResponse<String> started = here.get("/login/federado/google");
                assertThat(started.statusCode()).as(service.logTail()).isEqualTo(302);
                HttpResponse<String> toProvider = here.get(pathOf(WebClient.location(started)));
                assertThat(toProvider.statusCode()).as(service.logTail()).isEqualTo(302);
                assertThat(WebClient.location(toProvider)).startsWith(provider.issuer + "/oauth/authorize.php?")
                        .contains("client_id=" + google.clientId()).contains("scope=openid%20email%20profile")
                        .contains("nonce=");
                HttpResponse<String> code = there.get(pathOf(WebClient.location(toProvider)));
                assertThat(code.statusCode()).as(code.body()).isEqualTo(302);
                assertThat(WebClient.location(code)).startsWith(base + "/login/oauth2/code/google?code=");
                HttpResponse<String> asked = here.get(pathOf(WebClient.location(code)));
                assertThat(asked.statusCode()).as(service.logTail()).isEqualTo(302);
                // a first login: the birth date the provider did not give, asked once (decisions §27)
                assertThat(WebClient.location(asked)).as(service.logTail()).isEqualTo("/login/fecha-nacimiento");
                HttpResponse<String> page = here.get("/login/fecha-nacimiento");
                HttpResponse<String> landed = here.postForm("/login/fecha-nacimiento", java.util.Map.of("fecha_nacimiento",
                        "1990-05-17", "_csrf", WebClient.csrfOf(page.body())));
                assertThat(landed.statusCode()).as(service.logTail()).isEqualTo(302);
                assertThat(WebClient.location(landed)).as(service.logTail()).isEqualTo("/");

                HttpResponse<String> account = here.get("/cuenta/");
                assertThat(account.statusCode()).as("logged in: the account page").isEqualTo(200);
                assertThat(account.body()).contains(email).contains("Paca");
                assertThat(new WebClient(port).get("/cuenta/").statusCode()).as("another browser is not").isEqualTo(302);
            }
        }
    }

    private static String pathOf(String location) {
        URI uri = URI.create(location);
        return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }
}
