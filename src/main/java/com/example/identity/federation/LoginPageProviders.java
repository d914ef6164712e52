package com.example.identity.federation;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The login page's (signin/) "Entrar con <client-name>" buttons, one per configured provider, and the
 * notice of a refused federated login ({@code ?federado=}); the same buttons on the page where a guest keeps its
 * progress (registration/, decisions §24). An advice on those packages' pages, so that they do not import this
 * package (which imports signin/ to log accounts in, and registration/ for sign-ups that a provider's login starts).
 */
@ControllerAdvice(basePackages = { "com.example.identity.signin", "com.example.identity.registration" })
class LoginPageProviders {

    private final ObjectProvider<ClientRegistrationRepository> registrations;

    private final SteamSettings steam;

    LoginPageProviders(ObjectProvider<ClientRegistrationRepository> registrations, SteamSettings steam) {
        this.registrations = registrations;
        this.steam = steam;
    }

    @ModelAttribute("federatedProviders")
    List<ProviderButtons.Provider> providers() {
        return ProviderButtons.of(registrations, steam);
    }

    @ModelAttribute("federatedError")
    String federatedError(@RequestParam(name = "federado", required = false) String federado) {
        if (federado == null) {
            return null;
        }
        return switch (federado) {
            case "sin-correo" -> "El otro proveedor no nos ha dado tu dirección de correo: no podemos crear tu cuenta.";
            case "desactivada" -> "Esa cuenta está desactivada.";
            case "sin-verificar" -> "El otro proveedor no ha confirmado tu dirección de correo: no podemos crear tu cuenta.";
            case "cancelado" -> "Has cancelado la entrada con el otro proveedor.";
            case "steam" -> "Steam no ha confirmado tu identidad (respuesta no válida, caducada o ya usada). "
                    + "Vuelve a intentarlo.";
            default -> "No se ha podido entrar con el otro proveedor. Vuelve a intentarlo.";
        };
    }
}
