package com.example.identity.federation;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.core.user.OAuth2User;

/**
 * Who another provider says logged in (decisions §19): the registration id, the provider's subject (OpenID
 * Connect's {@code sub}, else the registration's {@code user-name-attribute}), and what it says of the
 * person: the address, whether it verified it, a name.
 */
record ExternalIdentity(String provider, String subject, @Nullable String email, boolean emailVerified,
        @Nullable String name) {

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
                Boolean.TRUE.equals(verified) || "true".equals(verified), name);
    }

    private static @Nullable String text(@Nullable Object value) {
        return value == null || value.toString().isBlank() ? null : value.toString();
    }

    @Override
    public String toString() {
        return "ExternalIdentity[" + provider + "]";
    }
}
