package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.IdentityApplication;
import com.example.identity.account.AccountService;
import com.example.identity.client.ClientService;
import com.example.identity.crypto.Secrets;
import com.example.identity.oauth.token.AuthorizationCodeExchange;
import com.example.identity.support.WebClient;

/** {@code identity.signing-key.location}: a PEM file signs; an unreadable one gives oidc_key_missing. */
class SigningKeyLocationIT {

    @TempDir
    Path dir;

    @Test
    void pemFileIsTheSigningKey() throws Exception {
        RSAKey generated = new RSAKeyGenerator(2048).generate();
        Path pem = dir.resolve("signing.pem");
        Files.writeString(pem, com.example.identity.keys.SigningKeysTestAccess.toPem(generated.toPrivateKey()));

        try (var app = start("--identity.signing-key.location=file:" + pem)) {
            var web = new WebClient(port(app));
            JWKSet jwks = JWKSet.parse(web.get("/oauth/jwks.json").body());
            assertThat(jwks.getKeys()).hasSize(1);
            RSAKey published = (RSAKey) jwks.getKeys().get(0);
            assertThat(published.getModulus()).isEqualTo(generated.getModulus());
            assertThat(published.getKeyID()).isEqualTo(generated.computeThumbprint().toString());

            var flow = new Flow(app, web);
            var tokens = OAuthTestBase.JSON.readTree(flow.exchange("openid").body());
            SignedJWT jwt = SignedJWT.parse(tokens.get("id_token").asString());
            assertThat(jwt.verify(new RSASSAVerifier(generated.toRSAPublicKey()))).isTrue();
            assertThat(jwt.getHeader().getKeyID()).isEqualTo(published.getKeyID());
        }
    }

    @Test
    void unreadableLocationStartsWithoutKeyAndRefusesOpenidOnly() throws Exception {
        try (var app = start("--identity.signing-key.location=file:" + dir.resolve("missing.pem"))) {
            var web = new WebClient(port(app));
            var jwks = web.get("/oauth/jwks.json");
            assertThat(jwks.statusCode()).isEqualTo(200);
            assertThat(OAuthTestBase.JSON.readTree(jwks.body()).get("keys").size()).isZero();

            var flow = new Flow(app, web);
            String code = flow.code("openid email");
            var refused = web.postForm("/oauth/token.php", OAuthTestBase.exchangeForm(flow.client, code));
            TokenEndpointIT.assertError(refused, 500, "oidc_key_missing");
            assertThat(app.getBean(JdbcTemplate.class).queryForObject(
                    "select count(*) from oauth_authorizations where code_digest = ? and code_used_at is null",
                    Integer.class, Secrets.sha256Hex(code))).as("the code is not spent").isOne();

            var withoutOpenid = web.postForm("/oauth/token.php", OAuthTestBase.exchangeForm(flow.client, flow.code("email")));
            assertThat(withoutOpenid.statusCode()).isEqualTo(200);
            assertThat(OAuthTestBase.JSON.readTree(withoutOpenid.body()).has("id_token")).isFalse();

            // a ticket for a game server must be signed too (decisions §25): server_error, in the RFC's shape
            long owner = app.getBean(AccountService.class).findByEmail("dev@example.com").orElseThrow().getId();
            var server = app.getBean(ClientService.class).register(owner, "Servidor", null, java.util.List.of(),
                    com.example.identity.client.ClientType.SERVER);
            var ticketForm = TicketExchangeIT.ticketForm(OAuthTestBase.JSON.readTree(withoutOpenid.body())
                    .get("access_token").asString(), server.clientId());
            ticketForm.put("client_id", flow.client.clientId());
            ticketForm.put("client_secret", flow.client.clientSecret());
            RefreshTokenIT.assertStandardError(web.postForm("/oauth/token.php", ticketForm), 500, "server_error",
                    "Sin clave de firma utilizable: no se puede firmar el ticket");

            // the documented order around the key: expired, then oidc_key_missing, then code_verifier
            var jdbc = app.getBean(JdbcTemplate.class);
            String expired = flow.code("openid");
            jdbc.update("update oauth_authorizations set code_expires_at = ? where code_digest = ?",
                    java.sql.Timestamp.from(java.time.Instant.now().minusSeconds(1)), Secrets.sha256Hex(expired));
            TokenEndpointIT.assertError(web.postForm("/oauth/token.php", OAuthTestBase.exchangeForm(flow.client, expired)),
                    400, "Código expirado");

            var pkce = web.get(OAuthTestBase.authorizeUrl(flow.client, "openid", Map.of("state", "s",
                    "code_challenge", AuthorizationCodeExchange.s256("v".repeat(43)), "code_challenge_method", "S256")));
            String pkceCode = UriComponentsBuilder.fromUriString(WebClient.location(pkce)).build().getQueryParams()
                    .getFirst("code");
            var wrongVerifier = OAuthTestBase.exchangeForm(flow.client, pkceCode);
            wrongVerifier.put("code_verifier", "w".repeat(43));
            TokenEndpointIT.assertError(web.postForm("/oauth/token.php", wrongVerifier), 500, "oidc_key_missing");
        }
    }

    /** A client and a logged-in developer on a freshly started application. */
    static final class Flow {
        final ClientService.NewCredentials client;
        final WebClient web;

        Flow(ConfigurableApplicationContext app, WebClient web) {
            long owner = app.getBean(AccountService.class).findByEmail("dev@example.com").orElseThrow().getId();
            this.client = com.example.identity.support.FirstParty.register(app.getBean(ClientService.class), owner, "Keys", "https://keys.example/cb");
            this.web = web;
            web.login("dev@example.com", "dev-demo-password");
        }

        String code(String scope) {
            var redirect = web.get(OAuthTestBase.authorizeUrl(client, scope, Map.of("state", "s")));
            return UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams().getFirst("code");
        }

        java.net.http.HttpResponse<String> exchange(String scope) {
            return web.postForm("/oauth/token.php", OAuthTestBase.exchangeForm(client, code(scope)));
        }
    }

    private static ConfigurableApplicationContext start(String setting) {
        return new SpringApplicationBuilder(IdentityApplication.class).run("--server.port=0",
                "--spring.profiles.active=test",
                "--spring.datasource.url=jdbc:h2:mem:keys-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", setting);
    }

    private static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }
}
