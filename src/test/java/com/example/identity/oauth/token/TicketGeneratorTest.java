package com.example.identity.oauth.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenExchangeAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContext;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.DefaultOAuth2TokenContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.account.Role;
import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.apitoken.TokenOwner;

/** A ticket's header and claims exactly as decisions §25 lists them, as JSON; and nothing for other token types. */
class TicketGeneratorTest {

    static final Instant NOW = Instant.parse("2026-11-28T10:00:00.750Z");

    final RSAKey key = generate();
    final TicketGenerator generator = new TicketGenerator(
            new NimbusJwtEncoder((selector, context) -> selector.select(new JWKSet(key))),
            new TicketSettings(Duration.ofSeconds(90)), Clock.fixed(NOW, ZoneOffset.UTC));
    final RegisteredClient game = RegisteredClient.withId("juego").clientId("juego")
            .clientAuthenticationMethod(ClientAuthenticationMethod.NONE)
            .authorizationGrantType(AuthorizationGrantType.TOKEN_EXCHANGE).build();
    final TokenOwner player = new TokenOwner(7, 42, "Paula", "paula@example.com", Role.USER, TokenKind.OAUTH, null,
            "juego", Set.of("openid"), "auth-1", Set.of(), true, null);

    static RSAKey generate() {
        try {
            return new RSAKeyGenerator(2048).keyID("k1").generate();
        }
        catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    DefaultOAuth2TokenContext.Builder context(OAuth2TokenType type) {
        var client = new OAuth2ClientAuthenticationToken(game, ClientAuthenticationMethod.NONE, null);
        var request = new OAuth2TokenExchangeAuthenticationToken(TicketRequests.JWT_TOKEN_TYPE, "a".repeat(64),
                TicketRequests.ACCESS_TOKEN_TYPE, client, null, null, Set.of(), Set.of("servidor-1"), null, Map.of());
        return DefaultOAuth2TokenContext.builder().registeredClient(game)
                .principal(new BearerTokenAuthentication(player))
                .authorizationServerContext(new FixedIssuer())
                .tokenType(type).authorizationGrantType(AuthorizationGrantType.TOKEN_EXCHANGE).authorizationGrant(request);
    }

    @Test
    void theTicketIsTypedSignedAndCarriesExactlyItsClaims() {
        Jwt ticket = generator.generate(context(TicketGenerator.TICKET).build());

        String[] parts = ticket.getTokenValue().split("\\.");
        JsonMapper json = JsonMapper.builder().build();
        JsonNode header = json.readTree(Base64.getUrlDecoder().decode(parts[0]));
        JsonNode claims = json.readTree(Base64.getUrlDecoder().decode(parts[1]));
        assertThat(header.get("typ").asString()).isEqualTo("ticket+jwt");
        assertThat(header.get("alg").asString()).isEqualTo("RS256");
        assertThat(header.get("kid").asString()).isEqualTo("k1");
        assertThat(claims.propertyNames()).containsExactlyInAnyOrder("iss", "sub", "aud", "azp", "iat", "exp", "jti",
                "primer_nombre", "rol", "invitado");
        assertThat(claims.get("iss").asString()).isEqualTo("https://id.example");
        assertThat(claims.get("sub").asString()).isEqualTo("user:42");
        assertThat(claims.get("aud").isString()).as("one audience, one string").isTrue();
        assertThat(claims.get("aud").asString()).isEqualTo("servidor-1");
        assertThat(claims.get("azp").asString()).isEqualTo("juego");
        assertThat(claims.get("iat").asLong()).as("whole seconds").isEqualTo(NOW.getEpochSecond());
        assertThat(claims.get("exp").asLong()).isEqualTo(NOW.getEpochSecond() + 90);
        assertThat(claims.get("jti").asString()).matches("[0-9a-f-]{36}");
        assertThat(claims.get("primer_nombre").asString()).isEqualTo("Paula");
        assertThat(claims.get("rol").asString()).isEqualTo("user");
        assertThat(claims.get("invitado").isBoolean()).isTrue();
        assertThat(claims.get("invitado").asBoolean()).isFalse();
        assertThat(ticket.getExpiresAt()).isEqualTo(Instant.ofEpochSecond(NOW.getEpochSecond() + 90));
        assertThat(generator.generate(context(TicketGenerator.TICKET).build()).getId()).as("a new jti each time")
                .isNotEqualTo(ticket.getId());
    }

    /** A guest player's ticket says {@code "invitado": true} (decisions §24). */
    @Test
    void aGuestsTicketSaysSo() {
        var guestOwner = new TokenOwner(8, 43, "Invitado 1234", null, Role.INVITADO, TokenKind.OAUTH, null, "juego",
                Set.of("openid"), "auth-2", Set.of(), false, null);
        var context = context(TicketGenerator.TICKET).principal(new BearerTokenAuthentication(guestOwner)).build();

        Jwt ticket = generator.generate(context);

        assertThat(ticket.getClaimAsBoolean("invitado")).isTrue();
        assertThat(ticket.getClaimAsString("rol")).isEqualTo("invitado");
    }

    @Test
    void otherTokenTypesAreNotItsBusiness() {
        assertThat(generator.generate(context(OAuth2TokenType.ACCESS_TOKEN).build())).isNull();
        assertThat(generator.generate(context(OAuth2TokenType.REFRESH_TOKEN).build())).isNull();
    }

    private static final class FixedIssuer implements AuthorizationServerContext {

        @Override
        public String getIssuer() {
            return "https://id.example";
        }

        @Override
        public AuthorizationServerSettings getAuthorizationServerSettings() {
            return AuthorizationServerSettings.builder().issuer(getIssuer()).build();
        }
    }
}
