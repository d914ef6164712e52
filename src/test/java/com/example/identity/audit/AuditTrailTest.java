package com.example.identity.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import com.example.identity.common.Purge;

/** What a line of the trail holds: when, who, from where, about what; and how the trail is paged and purged. */
class AuditTrailTest {

    static final Instant NOW = Instant.parse("2025-03-01T10:15:30Z");

    final AuditRecordRepository records = mock(AuditRecordRepository.class);
    final AuditTrail trail = new AuditTrail(records, Clock.fixed(NOW, ZoneOffset.UTC), actor -> null);

    @AfterEach
    void forgetTheRequest() {
        SecurityContextHolder.clearContext();
        RequestContextHolder.resetRequestAttributes();
    }

    AuditRecord recorded(AuditEvent event) {
        trail.record(event);
        ArgumentCaptor<AuditRecord> saved = ArgumentCaptor.forClass(AuditRecord.class);
        verify(records).save(saved.capture());
        return saved.getValue();
    }

    @Test
    void aLineOutsideARequestHasTheClocksTimeAndNoActorNorAddress() {
        AuditRecord line = recorded(new AuditEvent(AuditEvent.Type.SIGNING_KEY_ROTATED, "clave abc"));
        assertThat(line.getOccurredAt()).isEqualTo(NOW);
        assertThat(line.getEvent()).isEqualTo(AuditEvent.Type.SIGNING_KEY_ROTATED);
        assertThat(line.getSubject()).isEqualTo("clave abc");
        assertThat(line.getActor()).isNull();
        assertThat(line.getAddress()).isNull();
    }

    @Test
    void theLoggedInUserIsTheActorAndThePeerTheAddress() {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "ana@example.com", null, AuthorityUtils.createAuthorityList("ROLE_USER")));
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.setRemoteAddr("203.0.113.9");
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));

        AuditRecord line = recorded(new AuditEvent(AuditEvent.Type.TOKEN_CREATED, "token 7"));

        assertThat(line.getActor()).isEqualTo("ana@example.com");
        assertThat(line.getAddress()).isEqualTo("203.0.113.9");
    }

    @Test
    void anActorNamedByTheEventWinsOverTheLoggedInUser() {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "admin@example.com", null, AuthorityUtils.createAuthorityList("ROLE_ADMIN")));
        AuditRecord line = recorded(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, null, "ana@example.com"));
        assertThat(line.getActor()).isEqualTo("ana@example.com");
    }

    @Test
    void anAnonymousOrUnauthenticatedVisitorIsNoActor() {
        SecurityContextHolder.getContext().setAuthentication(new AnonymousAuthenticationToken("key", "anonymousUser",
                AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS")));
        assertThat(recorded(new AuditEvent(AuditEvent.Type.DEVICE_DENIED, "x")).getActor()).isNull();
    }

    @Test
    void aNotYetAuthenticatedLoginAttemptIsNoActor() {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.unauthenticated("ana@example.com", "secreta"));
        assertThat(recorded(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, "x")).getActor()).isNull();
    }

    @Test
    void valuesLongerThanTheirColumnsAreClipped() {
        AuditRecord line = new AuditRecord(NOW, AuditEvent.Type.LOGIN_FAILED, "a".repeat(300), "1".repeat(80), "s".repeat(250));
        assertThat(line.getActor()).hasSize(254);
        assertThat(line.getAddress()).hasSize(64);
        assertThat(line.getSubject()).hasSize(200).isEqualTo("s".repeat(200));
        AuditRecord shortOne = new AuditRecord(NOW, AuditEvent.Type.LOGIN_FAILED, "a@b.es", "::1", "corto");
        assertThat(shortOne.getSubject()).isEqualTo("corto");
    }

    @Test
    void pagesAreOfFiftyNewestFirstAndANegativePageIsTheFirst() {
        Page<AuditRecord> none = new PageImpl<>(List.of());
        when(records.findAllByOrderByOccurredAtDescIdDesc(any())).thenReturn(none);

        assertThat(trail.page(-3)).isSameAs(none);
        ArgumentCaptor<Pageable> asked = ArgumentCaptor.forClass(Pageable.class);
        verify(records).findAllByOrderByOccurredAtDescIdDesc(asked.capture());
        assertThat(asked.getValue().getPageNumber()).isZero();
        assertThat(asked.getValue().getPageSize()).isEqualTo(AuditTrail.PAGE_SIZE).isEqualTo(50);
    }

    @Test
    void thePurgeForgetsAuditRowsOlderThanTheCutoff() {
        Instant cutoff = NOW.minusSeconds(86_400 * 365);
        when(records.deleteOlderThan(cutoff)).thenReturn(4);
        assertThat(trail.kind()).isEqualTo(Purge.Kind.AUDIT_ROWS);
        assertThat(trail.purge(cutoff, NOW)).isEqualTo(4);
        verify(records).deleteOlderThan(cutoff);
    }
}
