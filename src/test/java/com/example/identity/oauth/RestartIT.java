package com.example.identity.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.IdentityApplication;
import com.example.identity.account.AccountService;
import com.example.identity.account.Role;
import com.example.identity.client.ClientService;
import com.example.identity.support.WebClient;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;

/** A key and a token from before a restart still verify and work after it (decisions §7). */
class RestartIT {

    @Test
    void keyAndTokenSurviveARestart() throws Exception {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.profiles.active=test"));
        if (System.getenv("SPRING_DATASOURCE_URL") == null) {
            args.add("--spring.datasource.url=jdbc:h2:mem:restart-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        }
        String idToken;
        String accessToken;
        try (var first = start(args)) {
            var owner = first.getBean(AccountService.class).findByEmail("dev@example.com").orElseThrow();
            var client = com.example.identity.support.FirstParty.register(first.getBean(ClientService.class), owner.getId(), "Restart", "https://restart.example/cb");
            String email = "restart-" + UUID.randomUUID() + "@example.com";
            first.getBean(AccountService.class).create("Rita", email, "restart-password-1", Role.USER);
            var web = new WebClient(port(first));
            web.login(email, "restart-password-1");
            var redirect = web.get(OAuthTestBase.authorizeUrl(client, "openid", Map.of("state", "s")));
            String code = UriComponentsBuilder.fromUriString(WebClient.location(redirect)).build().getQueryParams()
                    .getFirst("code");
            var tokens = OAuthTestBase.JSON.readTree(
                    web.postForm("/oauth/token.php", OAuthTestBase.exchangeForm(client, code)).body());
            idToken = tokens.get("id_token").asString();
            accessToken = tokens.get("access_token").asString();
        }

        try (var second = start(args)) {
            var web = new WebClient(port(second));
            JWKSet jwks = JWKSet.parse(web.get("/oauth/jwks.json").body());
            SignedJWT jwt = SignedJWT.parse(idToken);
            RSAKey key = (RSAKey) jwks.getKeyByKeyId(jwt.getHeader().getKeyID());
            assertThat(key).as("the key that signed before the restart is still published").isNotNull();
            assertThat(jwt.verify(new RSASSAVerifier(key))).isTrue();

            var userinfo = web.get("/api/userinfo.php", "Authorization", "Bearer " + accessToken);
            assertThat(userinfo.statusCode()).isEqualTo(200);
            assertThat(OAuthTestBase.JSON.readTree(userinfo.body()).get("user").get("primer_nombre").asString())
                    .isEqualTo("Rita");
        }
    }

    private static ConfigurableApplicationContext start(List<String> args) {
        return new SpringApplicationBuilder(IdentityApplication.class).run(args.toArray(String[]::new));
    }

    private static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }
}
