package com.example.identity.passkey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.web.webauthn.api.Bytes;
import org.springframework.security.web.webauthn.api.CredentialRecord;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialUserEntity;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.UserCredentialRepository;

import com.example.identity.IdentityProperties;
import com.example.identity.audit.AuditEvent;

/** An account's passkeys (sorted, removed by their owner only), their audit, and the relying party's identity. */
class PasskeysTest {

    static final Bytes ANA_ID = new Bytes(new byte[] { 1, 2, 3 });
    static final Bytes BEA_ID = new Bytes(new byte[] { 4, 5, 6 });

    PublicKeyCredentialUserEntityRepository users = mock(PublicKeyCredentialUserEntityRepository.class);
    UserCredentialRepository credentials = mock(UserCredentialRepository.class);
    Passkeys passkeys = new Passkeys(users, credentials);

    static PublicKeyCredentialUserEntity entity(Bytes id) {
        var entity = mock(PublicKeyCredentialUserEntity.class);
        when(entity.getId()).thenReturn(id);
        return entity;
    }

    static CredentialRecord credential(byte id, String label, Bytes owner) {
        var record = mock(CredentialRecord.class);
        when(record.getCredentialId()).thenReturn(new Bytes(new byte[] { id }));
        when(record.getLabel()).thenReturn(label);
        when(record.getUserEntityUserId()).thenReturn(owner);
        when(record.getCreated()).thenReturn(Instant.EPOCH);
        return record;
    }

    @Test
    void anAccountsPasskeysSortedByName() {
        var anaEntity = entity(ANA_ID);
        when(users.findByUsername("ana@example.com")).thenReturn(anaEntity);
        var phone = credential((byte) 9, "teléfono", ANA_ID);
        var laptop = credential((byte) 8, "portátil", ANA_ID);
        when(credentials.findByUserId(ANA_ID)).thenReturn(List.of(phone, laptop));
        assertThat(passkeys.of("ana@example.com")).extracting(Passkeys.Passkey::label).containsExactly("portátil", "teléfono");
        assertThat(passkeys.of("ana@example.com").get(0).id()).isEqualTo(new Bytes(new byte[] { 8 }).toBase64UrlString());
        assertThat(passkeys.hasAny("ana@example.com")).isTrue();
        assertThat(passkeys.of("nadie@example.com")).isEmpty();
        assertThat(passkeys.hasAny("nadie@example.com")).isFalse();
    }

    @Test
    void onlyTheOwnerRemovesAPasskey() {
        var anaEntity = entity(ANA_ID);
        var beaEntity = entity(BEA_ID);
        when(users.findByUsername("ana@example.com")).thenReturn(anaEntity);
        when(users.findByUsername("bea@example.com")).thenReturn(beaEntity);
        var anas = credential((byte) 8, "portátil", ANA_ID);
        when(credentials.findByCredentialId(anas.getCredentialId())).thenReturn(anas);
        String id = anas.getCredentialId().toBase64UrlString();

        assertThat(passkeys.remove("bea@example.com", id)).as("someone else's").isFalse();
        assertThat(passkeys.remove("nadie@example.com", id)).isFalse();
        assertThat(passkeys.remove("ana@example.com", "no+es/base64url")).isFalse();
        assertThat(passkeys.remove("ana@example.com", null)).isFalse();
        assertThat(passkeys.remove("ana@example.com", "QUJD")).as("unknown").isFalse();
        verify(credentials, never()).delete(any());

        assertThat(passkeys.remove("ana@example.com", id)).isTrue();
        verify(credentials).delete(anas.getCredentialId());
    }

    @Test
    void addingAndRemovingArePublishedButNotUpdates() {
        var inner = mock(UserCredentialRepository.class);
        var events = mock(ApplicationEventPublisher.class);
        var audited = new AuditedCredentials(inner, events);
        var record = credential((byte) 8, "portátil", ANA_ID);

        audited.save(record);
        verify(events).publishEvent(new AuditEvent(AuditEvent.Type.PASSKEY_ADDED, "llave «portátil»"));
        when(inner.findByCredentialId(record.getCredentialId())).thenReturn(record);
        audited.save(record); // a login's new counter: no audit line
        audited.delete(record.getCredentialId());
        verify(events).publishEvent(new AuditEvent(AuditEvent.Type.PASSKEY_REMOVED, "llave «portátil»"));
        verify(events, org.mockito.Mockito.times(2)).publishEvent(any(Object.class));
        verify(inner, org.mockito.Mockito.times(2)).save(record);
    }

    @Test
    void theRelyingPartyIsTheIssuer() {
        var properties = mock(IdentityProperties.class);
        when(properties.issuerUrl()).thenReturn("https://id.example.com");
        assertThat(PasskeyConfig.rpId(properties)).isEqualTo("id.example.com");
        assertThat(PasskeyConfig.origin(properties)).isEqualTo("https://id.example.com");
        when(properties.issuerUrl()).thenReturn("http://localhost:8080/base");
        assertThat(PasskeyConfig.rpId(properties)).isEqualTo("localhost");
        assertThat(PasskeyConfig.origin(properties)).isEqualTo("http://localhost:8080");
    }
}
