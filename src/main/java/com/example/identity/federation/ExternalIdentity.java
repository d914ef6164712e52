package com.example.identity.federation;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.core.user.OAuth2User;

/**
 * Who another provider says logged in (decisions §19): the registration id, the provider's subject (OpenID
 * Connect's {@code sub}, else the registration's {@code user-name-attribute}), and what it says of the
 * person: the address, whether it verified it, a name, and OpenID Connect's {@code birthdate} as it gave it (decisions
 * §27; {@code YYYY-MM-DD}, or another shape the birth date's rule refuses, such as {@code 0000-MM-DD}).
 */
record ExternalIdentity(String provider, String subject, @Nullable String email, boolean emailVerified,
        @Nullable String name, @Nullable String birthdate) {

    /** What a provider that speaks of no birth date says (Steam, a login without it). */
    ExternalIdentity(String provider, String subject, @Nullable String email, boolean emailVerified, @Nullable String name) {
        this(provider, subject, email, emailVerified, name, null);
    }

    static ExternalIdentity of(OAuth2AuthenticationToken token, FederationSettings settings) {
        String provider = token.getAuthorizedClientRegistrationId();
        OAuth2User user = token.getPrincipal();
        String subject = user instanceof OidcUser oidc ? oidc.getSubject() : user.getName();
        FederationSettings.Attributes names = settings.attributesOf(provider);
        Map<String, Object> attributes = user.getAttributes();
        String email = text(attributes.get(names.email()));
        Object verified = attributes.get(names.emailVerified());
        String name = text(attributes.get(names.name()));
        if (name == null) {
            name = text(attributes.get("name"));
        }
        return new ExternalIdentity(provider, subject, email == null ? null : email.strip(),
                Boolean.TRUE.equals(verified) || "true".equals(verified), name, text(attributes.get("birthdate")));
    }

    private static @Nullable String text(@Nullable Object value) {
        return value == null || value.toString().isBlank() ? null : value.toString();
    }

    @Override
    public String toString() {
        return "ExternalIdentity[" + provider + "]";
    }
}
