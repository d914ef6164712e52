package com.example.identity.backchannel;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.stereotype.Component;

import com.example.identity.IdentityProperties;
import com.example.identity.outbound.ReceiverClient;
import com.example.identity.outbox.OutboxHandler;
import com.example.identity.outbox.OutboxMessage;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Delivers a back-channel logout (OpenID Connect Back-Channel Logout 1.0 §2.4-2.5) from the outbox: a logout token
 * made at each attempt (RS256 with the current signing key, header {@code typ} {@code logout+jwt}; {@code iss},
 * {@code aud} = the application's client_id, {@code iat}, {@code exp} two minutes later, {@code jti}, {@code sub}
 * {@code user:<id>} as in its id_tokens, {@code sid}, {@code events}; never {@code nonce}) POSTed as
 * {@code application/x-www-form-urlencoded} {@code logout_token=...} to the application's back-channel logout URI,
 * through {@link ReceiverClient}: the address checked at delivery, no redirect followed, the whole exchange within
 * {@code identity.outbound.timeout} (10 s). A 2xx answer is delivered; anything else (an error status, no answer in
 * time, an address that resolves to a local or private one) is tried again by the outbox, with back-off, for 24 hours.
 */
@Component
class LogoutTokenDelivery implements OutboxHandler {

    static final String KIND = "backchannel-logout";
    static final String EVENT = "http://schemas.openid.net/event/backchannel-logout";
    static final Duration LIFETIME = Duration.ofMinutes(2);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JwtEncoder encoder;
    private final String issuer;
    private final Clock clock;
    private final ReceiverClient receivers;

    LogoutTokenDelivery(JwtEncoder encoder, IdentityProperties properties, Clock clock, ReceiverClient receivers) {
        this.encoder = encoder;
        this.issuer = properties.issuerUrl();
        this.clock = clock;
        this.receivers = receivers;
    }

    /** What a delivery needs, fixed when the session ends: the issuer of the instance that saw it end. */
    String payload(LogoutSessions.ToTell told) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("iss", issuer);
        payload.put("client_id", told.clientId());
        payload.put("uri", told.uri());
        payload.put("sub", "user:" + told.userId());
        payload.put("sid", told.sid());
        return JSON.writeValueAsString(payload);
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Duration longestDelivery() {
        return receivers.longestExchange();
    }

    /** The application: its logout tokens share the per-receiver share of the outbox's threads. */
    @Override
    public String receiver(OutboxMessage message) {
        return JSON.readTree(message.payload()).get("client_id").asString();
    }

    @Override
    public void deliver(OutboxMessage message) throws IOException {
        JsonNode payload = JSON.readTree(message.payload());
        String token = logoutToken(payload.get("iss").asString(), payload.get("client_id").asString(),
                payload.get("sub").asString(), payload.get("sid").asString());
        receivers.post(payload.get("uri").asString(), "application/x-www-form-urlencoded", Map.of(),
                "logout_token=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    }

    String logoutToken(String iss, String clientId, String subject, String sid) {
        Instant now = clock.instant();
        JwtClaimsSet claims = JwtClaimsSet.builder()
                .issuer(iss)
                .audience(List.of(clientId))
                .issuedAt(now)
                .expiresAt(now.plus(LIFETIME))
                .id(UUID.randomUUID().toString())
                .subject(subject)
                .claim("sid", sid)
                .claim("events", Map.of(EVENT, Map.of()))
                .build();
        JwsHeader header = JwsHeader.with(SignatureAlgorithm.RS256).type("logout+jwt").build();
        return encoder.encode(JwtEncoderParameters.from(header, claims)).getTokenValue();
    }
}
