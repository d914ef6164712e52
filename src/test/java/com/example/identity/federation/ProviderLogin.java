package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.test.context.DynamicPropertyRegistry;

import com.example.identity.support.WebClient;

/**
 * The local OpenID provider of the federated login ITs and a browser's way through it: this service on a port of its
 * own (the tests run it with {@code DEFINED_PORT}: the provider sends the browser back to that address), an
 * {@link OtherProvider} started and registered as an OpenID Connect provider named "Google" found by its
 * {@code issuer-uri}, people logged in there, and a login that goes from a button of this service through the
 * provider and back, answering the birth date's page of a first login. One per test class, in a static field:
 *
 * <pre>
 * static final ProviderLogin FEDERATION = new ProviderLogin();
 * static OtherProvider provider;
 *
 * &#64;DynamicPropertySource
 * static void providers(DynamicPropertyRegistry registry) {
 *     provider = FEDERATION.start(registry, "google");
 * }
 * </pre>
 */
final class ProviderLogin {

    static final String PASSWORD = "provider-password-1";
    /** A birth date of an adult, for the birth date's page. */
    static final String ADULT = "1990-05-17";

    /** This service's port and address. */
    final int port = OtherProvider.freePort();
    final String base = "http://localhost:" + port;
    private OtherProvider provider;

    /**
     * Starts the provider and registers it as {@code registrationId} ("Google", OpenID Connect, found by its issuer),
     * with this service's {@code server.port} and {@code identity.issuer}; the provider, for more registrations and
     * to close after the class.
     */
    OtherProvider start(DynamicPropertyRegistry registry, String registrationId) {
        provider = OtherProvider.start();
        var application = provider.application(base + "/login/oauth2/code/" + registrationId);
        String p = "spring.security.oauth2.client.";
        registry.add("server.port", () -> port);
        registry.add("identity.issuer", () -> base);
        registry.add(p + "registration." + registrationId + ".client-id", application::clientId);
        registry.add(p + "registration." + registrationId + ".client-secret", application::clientSecret);
        registry.add(p + "registration." + registrationId + ".client-name", () -> "Google");
        registry.add(p + "registration." + registrationId + ".scope", () -> "openid,email,profile");
        registry.add(p + "provider." + registrationId + ".issuer-uri", () -> provider.issuer);
        return provider;
    }

    /** A person logged in at the provider, in a browser of its own. */
    record ProviderPerson(long id, String email, WebClient browser) {
    }

    /** A person with a new address, logged in at the provider. */
    ProviderPerson atProvider(String name, boolean verified) {
        return atProvider(name, newEmail(), verified);
    }

    /** A person with {@code email}, logged in at the provider; the address verified there when {@code verified}. */
    ProviderPerson atProvider(String name, String email, boolean verified) {
        long id = provider.person(name, email, PASSWORD, verified);
        var browser = new WebClient(provider.port);
        assertThat(browser.login(email, PASSWORD).statusCode()).isEqualTo(302);
        return new ProviderPerson(id, email, browser);
    }

    static String newEmail() {
        return "fed-" + UUID.randomUUID() + "@example.com";
    }

    /**
     * From this service's {@code start} (a button's address) through the provider and back: the redirect URI's answer,
     * or, when it asks the birth date the provider did not give (a first login, decisions §27), the answer of that
     * page given an adult's.
     */
    HttpResponse<String> viaProvider(WebClient here, WebClient there, String start, String registrationId) {
        HttpResponse<String> arrived = beforeBirthDate(here, there, start, registrationId);
        if (arrived.statusCode() != 302 || !WebClient.location(arrived).equals("/login/fecha-nacimiento")) {
            return arrived;
        }
        return givingBirthDate(here, ADULT, Map.of());
    }

    /** As {@link #viaProvider}, without answering the birth date's page of a first login. */
    HttpResponse<String> beforeBirthDate(WebClient here, WebClient there, String start, String registrationId) {
        HttpResponse<String> started = here.get(start);
        assertThat(started.statusCode()).as(started.body()).isEqualTo(302);
        assertThat(pathOf(WebClient.location(started))).isEqualTo("/oauth2/authorization/" + registrationId);
        HttpResponse<String> toProvider = here.get("/oauth2/authorization/" + registrationId);
        assertThat(toProvider.statusCode()).isEqualTo(302);
        assertThat(WebClient.location(toProvider)).startsWith(provider.issuer + "/oauth/authorize.php?");
        HttpResponse<String> back = there.get(pathOf(WebClient.location(toProvider)));
        assertThat(back.statusCode()).as(back.body()).isEqualTo(302);
        assertThat(WebClient.location(back)).startsWith(base + "/login/oauth2/code/" + registrationId + "?code=");
        return here.get(pathOf(WebClient.location(back)));
    }

    /** The birth date's page answered with {@code birth} (and {@code extra} fields): its answer. */
    static HttpResponse<String> givingBirthDate(WebClient here, String birth, Map<String, String> extra) {
        HttpResponse<String> page = here.get("/login/fecha-nacimiento");
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        Map<String, String> fields = new LinkedHashMap<>(extra);
        fields.put("fecha_nacimiento", birth);
        fields.put("_csrf", WebClient.csrfOf(page.body()));
        return here.postForm("/login/fecha-nacimiento", fields);
    }

    /** The path and query of a redirect's location, to follow it on the same site. */
    static String pathOf(String location) {
        URI uri = URI.create(location);
        return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }
}
