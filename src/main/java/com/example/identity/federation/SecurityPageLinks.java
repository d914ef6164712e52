package com.example.identity.federation;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.account.AccountPrincipal;

/**
 * What {@code /cuenta/seguridad} (settings/) shows of the linked identities (decisions §19): the account's
 * links, the providers it may link, and what the last link action did ({@code ?vinculo=}). An advice on
 * settings/'s pages, so that settings/ needs no change of its own to list them.
 */
@ControllerAdvice(basePackages = "com.example.identity.settings")
class SecurityPageLinks {

    private final LinkedIdentities links;
    private final ObjectProvider<ClientRegistrationRepository> registrations;

    private final SteamSettings steam;

    SecurityPageLinks(LinkedIdentities links, ObjectProvider<ClientRegistrationRepository> registrations,
            SteamSettings steam) {
        this.steam = steam;
        this.links = links;
        this.registrations = registrations;
    }

    @ModelAttribute("linkedIdentities")
    List<LinkedIdentities.Link> linked(@AuthenticationPrincipal AccountPrincipal user) {
        return user == null ? List.of() : links.of(user.id());
    }

    /** The providers the account has no link with yet: one identity per provider is enough to log in with it. */
    @ModelAttribute("linkableProviders")
    List<ProviderButtons.Provider> linkable(@AuthenticationPrincipal AccountPrincipal user) {
        java.util.Set<String> linked = new java.util.HashSet<>();
        if (user != null) {
            links.of(user.id()).forEach(l -> linked.add(l.provider()));
        }
        return ProviderButtons.of(registrations, steam).stream().filter(p -> !linked.contains(p.id())).toList();
    }

    /** Each configured provider's {@code client-name}, by registration id, for the list's first column. */
    @ModelAttribute("providerNames")
    java.util.Map<String, String> providerNames() {
        java.util.Map<String, String> names = new java.util.HashMap<>();
        ProviderButtons.of(registrations, steam).forEach(p -> names.put(p.id(), p.name()));
        return names;
    }

    @ModelAttribute("linkNotice")
    String notice(@RequestParam(name = "vinculo", required = false) String vinculo) {
        if (vinculo == null) {
            return null;
        }
        return switch (vinculo) {
            case "nuevo" -> "Cuenta vinculada: ya puedes entrar con ella.";
            case "ocupado" -> "Esa cuenta del otro proveedor ya está vinculada a otra cuenta de aquí.";
            case "eliminado" -> "Cuenta desvinculada.";
            case "ultimo" -> "No puedes desvincularla: es tu única forma de entrar. Añade antes una contraseña "
                    + "(recupérala por correo) o una llave de acceso.";
            case "reciente" -> "Confirma tu contraseña en esta página y vuelve a intentarlo.";
            default -> null;
        };
    }
}
