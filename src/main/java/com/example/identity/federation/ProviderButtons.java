package com.example.identity.federation;

import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

/** The providers configured (decisions §19), in the order of their registration ids, for the pages' buttons. */
final class ProviderButtons {

    /** One "Entrar con …" button: the registration id and its {@code client-name}. */
    record Provider(String id, String name) {
    }

    private ProviderButtons() {
    }

    /** Spring Boot's registrations, and Steam when {@code identity.steam.enabled} (decisions §19). */
    static List<Provider> of(ObjectProvider<ClientRegistrationRepository> registrations, SteamSettings steam) {
        ClientRegistrationRepository repository = registrations.getIfAvailable();
        List<Provider> found = new ArrayList<>();
        if (repository instanceof Iterable<?> all) {
            for (Object registration : all) {
                ClientRegistration r = (ClientRegistration) registration;
                found.add(new Provider(r.getRegistrationId(), r.getClientName()));
            }
        }
        if (steam.enabled() && found.stream().noneMatch(p -> p.id().equals(SteamSettings.PROVIDER))) {
            found.add(new Provider(SteamSettings.PROVIDER, SteamSettings.NAME));
        }
        found.sort(java.util.Comparator.comparing(Provider::id));
        return found;
    }
}
