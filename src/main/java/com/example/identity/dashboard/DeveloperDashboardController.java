package com.example.identity.dashboard;

import java.time.Clock;
import java.util.Map;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import com.example.identity.IdentityProperties;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Caller;
import com.example.identity.client.ClientService;
import com.example.identity.common.Names;
import com.example.identity.token.ApiTokenService;

/**
 * {@code /dashboard/developer.php}: a developer's API tokens and OAuth applications, and what is needed
 * to wire a web site to them. Every action is a POST with the CSRF token, goes through the same services
 * as the management routes, and redirects back (a new secret travels once, as a flash attribute).
 */
@Controller
class DeveloperDashboardController {

    static final String VIEW = "dashboard/developer";
    static final String PAGE = "/dashboard/developer.php";

    private final ApiTokenService tokens;
    private final ClientService clients;
    private final IdentityProperties properties;
    private final Clock clock;

    DeveloperDashboardController(ApiTokenService tokens, ClientService clients, IdentityProperties properties,
            Clock clock) {
        this.tokens = tokens;
        this.clients = clients;
        this.properties = properties;
        this.clock = clock;
    }

    @GetMapping(PAGE)
    String dashboard(@AuthenticationPrincipal AccountPrincipal user, Model model) {
        var now = clock.instant();
        model.addAttribute("user", user);
        model.addAttribute("tokens", tokens.listForOwner(user.id()).stream()
                .map(t -> Views.TokenRow.of(t, now, user.correo())).toList());
        var rows = clients.listForOwner(user.id()).stream().map(c -> Views.ClientRow.of(c, user.correo())).toList();
        model.addAttribute("clients", rows);
        String issuer = properties.issuerUrl();
        model.addAttribute("issuer", issuer);
        model.addAttribute("endpoints", Map.of(
                "discovery", issuer + "/.well-known/openid-configuration",
                "authorize", issuer + "/oauth/authorize.php",
                "token", issuer + "/oauth/token.php",
                "jwks", issuer + "/oauth/jwks.json",
                "userinfo", issuer + "/api/userinfo.php"));
        var example = rows.stream().filter(Views.ClientRow::active).findFirst();
        String clientId = example.map(Views.ClientRow::clientId).orElse("TU_CLIENT_ID");
        String redirectUri = example.map(Views.ClientRow::redirectUri).orElse("https://tu-sitio.example/callback");
        model.addAttribute("springConfig", """
                spring:
                  security:
                    oauth2:
                      client:
                        registration:
                          identidad:
                            client-id: %s
                            client-secret: ${IDENTIDAD_CLIENT_SECRET}
                            scope: openid, email, profile
                            redirect-uri: %s
                        provider:
                          identidad:
                            issuer-uri: %s""".formatted(clientId, redirectUri, issuer));
        model.addAttribute("authorizeExample", issuer + "/oauth/authorize.php?response_type=code&client_id=" + clientId
                + "&redirect_uri=" + java.net.URLEncoder.encode(redirectUri, java.nio.charset.StandardCharsets.UTF_8)
                + "&scope=openid%20email%20profile&state=…&nonce=…");
        return VIEW;
    }

    @PostMapping("/dashboard/tokens/create")
    String createToken(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String name,
            RedirectAttributes redirect) {
        Names.problemWith(name).ifPresentOrElse(
                problem -> redirect.addFlashAttribute("tokenError", switch (problem) {
                    case MISSING -> "Escribe un nombre para el token.";
                    case TOO_LONG -> "El nombre no puede pasar de 100 caracteres.";
                    case INVALID -> "El nombre no puede llevar caracteres de control.";
                }),
                () -> {
                    var issued = tokens.createPersonal(user.id(), name);
                    redirect.addFlashAttribute("newToken", issued.value());
                    redirect.addFlashAttribute("newTokenName", issued.token().getName());
                });
        return "redirect:" + PAGE + "#tokens";
    }

    @PostMapping("/dashboard/tokens/revoke")
    String revokeToken(@AuthenticationPrincipal AccountPrincipal user, @RequestParam long id,
            @RequestParam(required = false) String back, RedirectAttributes redirect) {
        boolean revoked = tokens.revokeAs(Caller.of(user), id);
        redirect.addFlashAttribute("notice", revoked ? "Token revocado." : "No se encontró ese token.");
        return "redirect:" + backTo(back) + "#tokens";
    }

    @PostMapping("/dashboard/clients/create")
    String createClient(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String name,
            @RequestParam(name = "redirect_uri", required = false) String redirectUri, RedirectAttributes redirect) {
        try {
            redirect.addFlashAttribute("newClient", clients.register(user.id(), name, redirectUri));
        }
        catch (ClientService.InvalidRegistrationException e) {
            redirect.addFlashAttribute("clientErrors", Map.of(e.field(), e.getMessage()));
            redirect.addFlashAttribute("clientForm", Map.of("name", name == null ? "" : name,
                    "redirect_uri", redirectUri == null ? "" : redirectUri));
        }
        return "redirect:" + PAGE + "#clients";
    }

    @PostMapping("/dashboard/clients/rotate")
    String rotateSecret(@AuthenticationPrincipal AccountPrincipal user, @RequestParam("client_id") String clientId,
            @RequestParam(required = false) String back, RedirectAttributes redirect) {
        clients.rotateSecretAs(Caller.of(user), clientId).ifPresentOrElse(
                credentials -> redirect.addFlashAttribute("newClient", credentials),
                () -> redirect.addFlashAttribute("notice", "No se pudo rotar el secreto de esa aplicación."));
        return "redirect:" + backTo(back) + "#clients";
    }

    @PostMapping("/dashboard/clients/revoke")
    String revokeClient(@AuthenticationPrincipal AccountPrincipal user, @RequestParam("client_id") String clientId,
            @RequestParam(required = false) String back, RedirectAttributes redirect) {
        boolean revoked = clients.revokeAs(Caller.of(user), clientId);
        redirect.addFlashAttribute("notice", revoked ? "Aplicación revocada." : "No se encontró esa aplicación.");
        return "redirect:" + backTo(back) + "#clients";
    }

    /** Actions on the admin page return there; anything else returns to the developer page. */
    private static String backTo(String back) {
        return AdminController.PAGE.equals(back) ? AdminController.PAGE : PAGE;
    }
}
