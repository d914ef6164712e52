package com.example.identity.federation;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.client.endpoint.OAuth2AccessTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.OAuth2AuthorizationCodeGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.userinfo.DefaultOAuth2UserService;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.util.MultiValueMap;

/**
 * What the OAuth 2.0 client sends and reads beyond Spring Security's defaults (decisions §19): the token
 * request of Apple's registration carries a freshly signed client secret ({@link AppleClientSecret}, sent as
 * {@code client_secret_post}, as Apple's documentation does); the user-info answer of an OAuth 2.0 provider
 * is read with its nested objects flattened ({@code {"user":{"id":7}}} gives {@code user.id} as well), so a
 * provider's {@code user-name-attribute} and {@code identity.federation.attributes} may name nested values.
 */
final class FederatedTokenRequests {

    private FederatedTokenRequests() {
    }

    /** The token client: Spring Security's, with Apple's secret when {@code identity.federation.apple} is set. */
    static OAuth2AccessTokenResponseClient<OAuth2AuthorizationCodeGrantRequest> tokenClient(FederationSettings settings,
            ClientRegistrationRepository registrations, Clock clock) {
        var client = new RestClientAuthorizationCodeTokenResponseClient();
        FederationSettings.Apple apple = settings.apple();
        if (apple.privateKey() == null) {
            return client;
        }
        ClientRegistration registration = registrations.findByRegistrationId(apple.registrationId());
        if (registration == null) {
            throw new IllegalStateException("identity.federation.apple is set but spring.security.oauth2.client.registration."
                    + apple.registrationId() + " is not");
        }
        var secret = new AppleClientSecret(apple, clock);
        client.setParametersCustomizer(parameters -> withAppleSecret(parameters, registration.getClientId(), secret));
        return client;
    }

    /** Apple's token request (its {@code client_id}, sent in the body): the configured secret replaced by a fresh JWT. */
    static void withAppleSecret(MultiValueMap<String, String> parameters, String appleClientId, AppleClientSecret secret) {
        if (appleClientId.equals(parameters.getFirst(OAuth2ParameterNames.CLIENT_ID))) {
            parameters.set(OAuth2ParameterNames.CLIENT_SECRET, secret.forClient(appleClientId));
        }
    }

    /** Spring Security's user-info service, the answer's nested objects also flattened with dots. */
    static DefaultOAuth2UserService userService() {
        var service = new DefaultOAuth2UserService();
        service.setAttributesConverter(request -> FederatedTokenRequests::flattened);
        return service;
    }

    static Map<String, Object> flattened(Map<String, Object> attributes) {
        Map<String, Object> all = new LinkedHashMap<>(attributes);
        attributes.forEach((name, value) -> flatten(name, value, all, 0));
        return all;
    }

    private static void flatten(String prefix, @Nullable Object value, Map<String, Object> into, int depth) {
        if (value instanceof Map<?, ?> nested && depth < 4) {
            nested.forEach((name, inner) -> {
                String key = prefix + "." + name;
                if (inner != null) {
                    into.putIfAbsent(key, inner);
                }
                flatten(key, inner, into, depth + 1);
            });
        }
    }
}
