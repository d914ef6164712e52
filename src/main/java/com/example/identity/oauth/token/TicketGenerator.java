package com.example.identity.oauth.token;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenExchangeAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;

import com.example.identity.apitoken.BearerTokenAuthentication;
import com.example.identity.apitoken.TokenOwner;

/**
 * A ticket for a game server (decisions §25), one of the token generator's generators, for the token type
 * {@link #TICKET} only: a JWT signed by the authorization server's {@code JwtEncoder} (the current key of
 * {@code /oauth/jwks.json}, its {@code kid} in the header), header {@code typ} {@value #TYPE}; claims {@code iss},
 * {@code sub} ({@code user:<id>}), {@code aud} (the server's client_id), {@code azp} (the game that asked),
 * {@code iat}, {@code exp} ({@code identity.tickets.ttl} later), {@code jti} (a random UUID, which a server keeps
 * until {@code exp} to refuse a replay), and the player as {@code /api/userinfo.php} shows them:
 * {@code primer_nombre}, {@code rol}, {@code invitado}. Stored nowhere: a server verifies it offline.
 *
 * <p>Spring Authorization Server's {@code JwtGenerator} makes JWT access tokens and id_tokens only (and JWT access
 * tokens only for clients whose access tokens are self-contained, which here none is), so the ticket is
 * encoded here with the same encoder.
 */
public final class TicketGenerator implements OAuth2TokenGenerator<Jwt> {

    /** The token type a ticket is asked for with, in the {@link OAuth2TokenContext} ({@link TicketExchange}). */
    public static final OAuth2TokenType TICKET = new OAuth2TokenType("ticket");
    /** The JWT's {@code typ} (RFC 8725 §3.11: explicit typing, so no other JWT of this issuer passes for one). */
    public static final String TYPE = "ticket+jwt";
    private final JwtEncoder encoder;
    private final Duration ttl;
    private final Clock clock;

    public TicketGenerator(JwtEncoder encoder, TicketSettings settings, Clock clock) {
        this.encoder = encoder;
        this.ttl = settings.ttl();
        this.clock = clock;
    }

    @Override
    public @Nullable Jwt generate(OAuth2TokenContext context) {
        if (!TICKET.equals(context.getTokenType())
                || !(context.getPrincipal() instanceof BearerTokenAuthentication player)
                || !(context.getAuthorizationGrant() instanceof OAuth2TokenExchangeAuthenticationToken request)) {
            return null;
        }
        TokenOwner owner = player.owner();
        // whole seconds, as the JWT carries them: expires_in is then exactly exp - iat
        Instant issuedAt = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        JwtClaimsSet claims = JwtClaimsSet.builder()
                .issuer(context.getAuthorizationServerContext().getIssuer())
                .subject(player.getName())
                .audience(List.copyOf(request.getAudiences()))
                .claim("azp", context.getRegisteredClient().getClientId())
                .issuedAt(issuedAt)
                .expiresAt(issuedAt.plus(ttl))
                .id(UUID.randomUUID().toString())
                .claim("primer_nombre", owner.primerNombre())
                .claim("rol", owner.rol().value())
                // decisions §24: true for a guest player's ticket, false for everyone else's
                .claim("invitado", owner.rol().isGuest())
                .build();
        JwsHeader header = JwsHeader.with(SignatureAlgorithm.RS256).type(TYPE).build();
        return encoder.encode(JwtEncoderParameters.from(header, claims));
    }
}
