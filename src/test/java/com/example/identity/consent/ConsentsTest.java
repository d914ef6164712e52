package com.example.identity.consent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.audit.AuditEvent;
import com.example.identity.client.ClientDirectory;

/** A consent covers a request holding every scope asked for; grants add up; withdrawing revokes the tokens. */
class ConsentsTest {

    static final Instant NOW = Instant.parse("2025-01-10T08:00:00Z");

    final JdbcTemplate jdbc = mock(JdbcTemplate.class);
    final ConsentTokens refreshTokens = mock(ConsentTokens.class);
    final ApplicationEventPublisher events = mock(ApplicationEventPublisher.class);
    final Consents consents = new Consents(jdbc, refreshTokens, events, Clock.fixed(NOW, ZoneOffset.UTC),
            mock(ClientDirectory.class));

    void stored(String scopes) {
        when(jdbc.queryForList(anyString(), eq(String.class), any(Object[].class)))
                .thenReturn(scopes == null ? List.of() : List.of(scopes));
    }

    @Test
    void storedScopesAreWordsSeparatedBySpaces() {
        assertThat(Consents.words(" openid  email profile ")).containsExactly("openid", "email", "profile");
        assertThat(Consents.words("")).isEmpty();
        assertThat(Consents.words("   ")).isEmpty();
        assertThat(Consents.words(null)).isEmpty();
    }

    @Test
    void aConsentCoversARequestForAnySubsetOfItsScopes() {
        stored("openid email profile");
        assertThat(consents.covers(7, "juego", Set.of("openid", "email"))).isTrue();
        assertThat(consents.covers(7, "juego", Set.of("openid", "email", "profile"))).isTrue();
    }

    @Test
    void aConsentDoesNotCoverAScopeItLacks() {
        stored("openid email");
        assertThat(consents.covers(7, "juego", Set.of("openid", "offline_access"))).isFalse();
    }

    @Test
    void noConsentCoversNothingNotEvenNoScopes() {
        stored(null);
        assertThat(consents.covers(7, "juego", Set.of())).isFalse();
        assertThat(consents.covers(7, "juego", Set.of("openid"))).isFalse();
    }

    @Test
    void aNewGrantAddsToTheEarlierOneAndIsAudited() {
        stored("openid email");
        consents.grant(7, "juego", new LinkedHashSet<>(List.of("email", "profile")));

        verify(jdbc).update(eq("update oauth_consents set scopes = ?, granted_at = ? where user_id = ? and client_id = ?"),
                eq("openid email profile"), any(), eq(7L), eq("juego"));
        verify(events).publishEvent(new AuditEvent(AuditEvent.Type.CONSENT_GIVEN, "juego de usuario #7: email profile"));
    }

    @Test
    void aFirstGrantInsertsTheRow() {
        stored(null);
        consents.grant(7, "juego", Set.of("openid"));

        verify(jdbc).update(eq("insert into oauth_consents (user_id, client_id, scopes, granted_at) values (?, ?, ?, ?)"),
                eq(7L), eq("juego"), eq("openid"), any());
    }

    @Test
    void aFirstGrantRacingAnotherBecomesAnUpdate() {
        stored(null);
        when(jdbc.update(anyString(), eq(7L), eq("juego"), eq("openid"), any()))
                .thenThrow(new DuplicateKeyException("given in another tab"));

        consents.grant(7, "juego", Set.of("openid"));

        verify(jdbc).update(eq("update oauth_consents set scopes = ?, granted_at = ? where user_id = ? and client_id = ?"),
                eq("openid"), any(), eq(7L), eq("juego"));
    }

    @Test
    void withdrawingAConsentRevokesTheApplicationsTokensForThatUser() {
        when(jdbc.update("delete from oauth_consents where user_id = ? and client_id = ?", 7L, "juego")).thenReturn(1);
        when(refreshTokens.revokeFamilies("juego", 7L)).thenReturn(3);

        assertThat(consents.withdraw(7, "juego")).isTrue();

        verify(refreshTokens).revokeFamilies("juego", 7L);
        verify(events).publishEvent(new AuditEvent(AuditEvent.Type.CONSENT_WITHDRAWN,
                "juego de usuario #7; tokens revocados: 3"));
    }

    @Test
    void withdrawingAConsentThatWasNotGivenChangesNothing() {
        when(jdbc.update("delete from oauth_consents where user_id = ? and client_id = ?", 7L, "juego")).thenReturn(0);

        assertThat(consents.withdraw(7, "juego")).isFalse();

        verify(refreshTokens, never()).revokeFamilies(anyString(), any(Long.class));
        verifyNoInteractions(events);
    }
}
