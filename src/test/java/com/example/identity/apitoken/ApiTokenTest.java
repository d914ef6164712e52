package com.example.identity.apitoken;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

class ApiTokenTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private static ApiToken token(Instant expiresAt) {
        return new ApiToken(7, "mi-juego", "0".repeat(64), "abcdef01", TokenScope.PERFIL, T0, expiresAt);
    }

    @Test
    void revokeRecordsTheTimeOnce() {
        ApiToken token = token(null);
        assertThat(token.isRevoked()).isFalse();

        assertThat(token.revoke(T0.plusSeconds(5))).isTrue();
        assertThat(token.isRevoked()).isTrue();
        assertThat(token.getRevokedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void aSecondRevokeIsRefusedAndKeepsTheFirstTime() {
        ApiToken token = token(null);
        token.revoke(T0.plusSeconds(5));

        assertThat(token.revoke(T0.plusSeconds(60))).isFalse();
        assertThat(token.getRevokedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void aTokenWithoutExpiryNeverExpires() {
        assertThat(token(null).isExpiredAt(T0.plus(Duration.ofDays(36_500)))).isFalse();
    }

    @Test
    void aTokenExpiresAtItsExpiryInstantNotBefore() {
        Instant expiry = T0.plus(Duration.ofHours(1));
        ApiToken token = token(expiry);
        assertThat(token.isExpiredAt(expiry.minusMillis(1))).isFalse();
        assertThat(token.isExpiredAt(expiry)).isTrue();
        assertThat(token.isExpiredAt(expiry.plusSeconds(1))).isTrue();
    }
}
