package com.example.identity.federation;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.io.Resource;

/**
 * {@code identity.federation.*} (decisions §19): what this service reads from another provider's user, and
 * Apple's client secret. The providers themselves are Spring Boot's
 * {@code spring.security.oauth2.client.registration.<id>.*} and {@code provider.<id>.*}.
 *
 * @param attributes per registration id, the attributes of an OAuth 2.0 provider's user-info answer that
 *     hold the address, whether it is verified and the name (nested objects are read with dots:
 *     {@code user.correo}); OpenID Connect providers need nothing here (the standard claims)
 * @param apple Apple's client secret, signed by this service
 */
@ConfigurationProperties("identity.federation")
public record FederationSettings(@DefaultValue Map<String, Attributes> attributes, @DefaultValue Apple apple) {

    /** The standard claims of OpenID Connect, unless a provider's user-info answer names them otherwise. */
    static final Attributes STANDARD = new Attributes("email", "email_verified", "given_name");

    Attributes attributesOf(String registrationId) {
        return attributes.getOrDefault(registrationId, STANDARD);
    }

    /**
     * @param email the attribute with the address; default {@code email}
     * @param emailVerified the attribute that is {@code true} when the provider verified the address; default
     *     {@code email_verified} (Discord: {@code verified})
     * @param name the attribute with the person's name; default {@code given_name}, then {@code name}
     */
    public record Attributes(@DefaultValue("email") String email, @DefaultValue("email_verified") String emailVerified,
            @DefaultValue("given_name") String name) {
    }

    /**
     * Sign in with Apple's client secret: a JWT (ES256) that this service signs with the key Apple gave, valid
     * for {@code secret-lifetime}, made again for each token request (Apple: at most 6 months).
     *
     * @param registrationId the registration it is for; default {@code apple}
     * @param teamId the Apple developer team id ({@code iss})
     * @param keyId the key's id ({@code kid})
     * @param privateKey the {@code .p8} file Apple gave (PKCS#8 PEM, EC P-256)
     * @param secretLifetime how long each secret is valid; default 5 minutes
     */
    public record Apple(@DefaultValue("apple") String registrationId, @Nullable String teamId, @Nullable String keyId,
            @Nullable Resource privateKey, @DefaultValue("5m") Duration secretLifetime) {
    }
}
