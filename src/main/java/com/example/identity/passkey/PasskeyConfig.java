package com.example.identity.passkey;

import java.net.URI;
import java.util.Set;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.web.webauthn.api.AuthenticatorSelectionCriteria;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialRpEntity;
import org.springframework.security.web.webauthn.api.ResidentKeyRequirement;
import org.springframework.security.web.webauthn.api.UserVerificationRequirement;
import org.springframework.security.web.webauthn.management.JdbcPublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.JdbcUserCredentialRepository;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.UserCredentialRepository;
import org.springframework.security.web.webauthn.management.WebAuthnRelyingPartyOperations;
import org.springframework.security.web.webauthn.management.Webauthn4JRelyingPartyOperations;

import com.example.identity.IdentityProperties;

/**
 * Passkeys (decisions §17) are Spring Security's WebAuthn support (site/WebSecurityConfig turns it on) with
 * its JDBC repositories, so credentials and the users they belong to are rows of the shared database
 * (migration V27) and any instance verifies any passkey. The relying party is the issuer: its host is the
 * {@code rpId}, its origin the one allowed origin. User verification (the device's fingerprint, face or PIN)
 * is required when a passkey is registered and whenever it is used (Spring's default only prefers it): that is
 * what makes a passkey login a two-factor login (account/LoginFactors).
 */
@Configuration(proxyBeanMethods = false)
public class PasskeyConfig {

    @Bean
    PublicKeyCredentialUserEntityRepository passkeyUsers(JdbcTemplate jdbc) {
        return new JdbcPublicKeyCredentialUserEntityRepository(jdbc);
    }

    @Bean
    UserCredentialRepository passkeyCredentials(JdbcTemplate jdbc, ApplicationEventPublisher events) {
        return new AuditedCredentials(new JdbcUserCredentialRepository(jdbc), events);
    }

    /** Spring Security's relying party (its WebAuthn configurer takes this bean), requiring user verification. */
    @Bean
    WebAuthnRelyingPartyOperations passkeyRelyingParty(PublicKeyCredentialUserEntityRepository users,
            UserCredentialRepository credentials, IdentityProperties properties) {
        var relyingParty = new Webauthn4JRelyingPartyOperations(users, credentials,
                PublicKeyCredentialRpEntity.builder().id(rpId(properties)).name(RP_NAME).build(),
                Set.of(origin(properties)));
        relyingParty.setCustomizeCreationOptions(options -> options.authenticatorSelection(
                AuthenticatorSelectionCriteria.builder().userVerification(UserVerificationRequirement.REQUIRED)
                        .residentKey(ResidentKeyRequirement.REQUIRED).build()));
        relyingParty.setCustomizeRequestOptions(options -> options.userVerification(UserVerificationRequirement.REQUIRED));
        return relyingParty;
    }

    /** The relying party's name, shown by the browser's prompt. */
    public static final String RP_NAME = "Identidad";

    /** The WebAuthn relying party id: the issuer's host ({@code localhost} on the embedded default). */
    public static String rpId(IdentityProperties properties) {
        return URI.create(properties.issuerUrl()).getHost();
    }

    /** The one origin passkeys are used from: the issuer's scheme, host and port. */
    public static String origin(IdentityProperties properties) {
        URI issuer = URI.create(properties.issuerUrl());
        return issuer.getScheme() + "://" + issuer.getHost() + (issuer.getPort() < 0 ? "" : ":" + issuer.getPort());
    }
}
