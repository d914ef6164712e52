package com.example.identity.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanUtils;
import org.springframework.test.util.ReflectionTestUtils;

import com.example.identity.client.ClientLogoutUris;
import com.example.identity.client.ClientType;
import com.example.identity.client.OAuthClient;
import com.example.identity.apitoken.ApiToken;
import com.example.identity.apitoken.TokenKind;
import com.example.identity.apitoken.TokenScope;

/** What the dashboards' tables show of a token and an application. */
class ViewsTest {

    static final Instant NOW = Instant.parse("2025-05-05T10:00:00Z");

    /** A token as the repository would load it (the entity's constructor is its package's). */
    static ApiToken token(Instant expiresAt, Instant revokedAt, Instant lastUsedAt) {
        ApiToken token = BeanUtils.instantiateClass(ApiToken.class);
        ReflectionTestUtils.setField(token, "id", 12L);
        ReflectionTestUtils.setField(token, "userId", 7L);
        ReflectionTestUtils.setField(token, "name", "juego");
        ReflectionTestUtils.setField(token, "prefix", "abcd1234");
        ReflectionTestUtils.setField(token, "kind", TokenKind.PERSONAL);
        ReflectionTestUtils.setField(token, "personalScope", TokenScope.DEFAULT);
        ReflectionTestUtils.setField(token, "createdAt", NOW.minusSeconds(3600));
        ReflectionTestUtils.setField(token, "expiresAt", expiresAt);
        ReflectionTestUtils.setField(token, "revokedAt", revokedAt);
        ReflectionTestUtils.setField(token, "lastUsedAt", lastUsedAt);
        return token;
    }

    @Test
    void aLiveTokenWithoutExpiry() {
        var row = Views.TokenRow.of(token(null, null, null), NOW, "dev@example.com");
        assertThat(row).isEqualTo(new Views.TokenRow(12, "juego", "abcd1234", "personal", TokenScope.DEFAULT.value(),
                "2025-05-05 09:00 UTC", "—", null, "Activo", true, 7, "dev@example.com"));
    }

    @Test
    void expiredAtItsInstantAndRevokedFirst() {
        assertThat(Views.TokenRow.of(token(NOW, null, NOW.minusSeconds(60)), NOW, "o"))
                .extracting(Views.TokenRow::state, Views.TokenRow::active, Views.TokenRow::expires, Views.TokenRow::lastUsed)
                .containsExactly("Caducado", false, "2025-05-05 10:00 UTC", "2025-05-05 09:59 UTC");
        assertThat(Views.TokenRow.of(token(NOW.plusSeconds(1), null, null), NOW, "o").state()).isEqualTo("Activo");
        assertThat(Views.TokenRow.of(token(NOW, NOW.minusSeconds(1), null), NOW, "o"))
                .extracting(Views.TokenRow::state, Views.TokenRow::active).containsExactly("Revocado", false);
    }

    @Test
    void applicationsWithTheirLogoutAddressesReadOnce() {
        OAuthClient live = client("tienda", false);
        OAuthClient revoked = client("vieja", true);
        ClientLogoutUris logoutUris = mock(ClientLogoutUris.class);
        when(logoutUris.of(List.of("tienda", "vieja"))).thenReturn(Map.of("tienda", List.of("https://tienda.example.com/adios")));
        var rows = Views.ClientRow.of(List.of(live, revoked), c -> "dueño de " + c.getClientId(), logoutUris);
        assertThat(rows).extracting(Views.ClientRow::clientId, Views.ClientRow::state, Views.ClientRow::active,
                Views.ClientRow::owner, Views.ClientRow::type, Views.ClientRow::postLogoutRedirectUris)
            .containsExactly(
                org.assertj.core.groups.Tuple.tuple("tienda", "Activa", true, "dueño de tienda", "web",
                        List.of("https://tienda.example.com/adios")),
                org.assertj.core.groups.Tuple.tuple("vieja", "Revocada", false, "dueño de vieja", "web", List.of()));
    }

    static OAuthClient client(String id, boolean revoked) {
        OAuthClient client = mock(OAuthClient.class);
        when(client.getClientId()).thenReturn(id);
        when(client.isRevoked()).thenReturn(revoked);
        when(client.getType()).thenReturn(ClientType.WEB);
        when(client.getCreatedAt()).thenReturn(NOW);
        return client;
    }
}
