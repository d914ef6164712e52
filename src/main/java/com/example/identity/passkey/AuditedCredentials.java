package com.example.identity.passkey;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.web.webauthn.api.Bytes;
import org.springframework.security.web.webauthn.api.CredentialRecord;
import org.springframework.security.web.webauthn.management.UserCredentialRepository;

import com.example.identity.audit.AuditEvent;

/**
 * Spring Security's credential repository with an audit line when a passkey is added or removed (every
 * change of how an account logs in is audited, decisions §17). Updates of a known credential (its
 * signature counter and last use, at each login) are not changes of the account.
 */
final class AuditedCredentials implements UserCredentialRepository {

    private final UserCredentialRepository credentials;
    private final ApplicationEventPublisher events;

    AuditedCredentials(UserCredentialRepository credentials, ApplicationEventPublisher events) {
        this.credentials = credentials;
        this.events = events;
    }

    @Override
    public void delete(Bytes credentialId) {
        CredentialRecord record = credentials.findByCredentialId(credentialId);
        credentials.delete(credentialId);
        if (record != null) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.PASSKEY_REMOVED, "llave «" + record.getLabel() + "»"));
        }
    }

    @Override
    public void save(CredentialRecord record) {
        boolean added = credentials.findByCredentialId(record.getCredentialId()) == null;
        credentials.save(record);
        if (added) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.PASSKEY_ADDED, "llave «" + record.getLabel() + "»"));
        }
    }

    @Override
    public @Nullable CredentialRecord findByCredentialId(Bytes credentialId) {
        return credentials.findByCredentialId(credentialId);
    }

    @Override
    public List<CredentialRecord> findByUserId(Bytes userId) {
        return credentials.findByUserId(userId);
    }
}
