package com.example.identity.dashboard;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;

import jakarta.validation.Valid;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.Caller;
import com.example.identity.client.ClientLogoutUris;
import com.example.identity.client.ClientService;
import com.example.identity.client.ClientType;
import com.example.identity.client.SenderConstraints;
import com.example.identity.common.Names;
import com.example.identity.apitoken.ApiTokenService;
import com.example.identity.apitoken.TokenScope;
import com.example.identity.webhooks.Webhooks;
import com.example.identity.web.FormErrors;

/**
 * {@code /dashboard/developer.php}: a developer's API tokens and OAuth applications, and what is needed
 * to wire a web site, a game launcher or a console to them (a help of each application's type, lasting). Every action is a POST with the CSRF token, goes through the same services
 * as the management routes. An action that makes a secret (a token, an application's secret) answers with
 * the page itself, the secret in it, so the secret never rests anywhere, not even in the session table that
 * every instance shares; {@code app.js} then replaces the address with the page's own, so a reload is a GET
 * that no longer shows it. Every other action redirects back with a notice.
 */
@Controller
class DeveloperDashboardController {

    static final String VIEW = "dashboard/developer";

    private final ApiTokenService tokens;
    private final ClientService clients;
    private final IdentityProperties properties;
    private final Clock clock;
    private final ClientLogoutUris logoutUris;
    private final Webhooks webhooks;

    DeveloperDashboardController(ApiTokenService tokens, ClientService clients, IdentityProperties properties,
            Clock clock, ClientLogoutUris logoutUris, Webhooks webhooks) {
        this.logoutUris = logoutUris;
        this.webhooks = webhooks;
        this.tokens = tokens;
        this.clients = clients;
        this.properties = properties;
        this.clock = clock;
    }

    @GetMapping(Endpoints.DEVELOPER_DASHBOARD)
    String dashboard(@AuthenticationPrincipal AccountPrincipal user, Model model) {
        var now = clock.instant();
        model.addAttribute("user", user);
        model.addAttribute("tokens", tokens.listForOwner(user.id()).stream()
                .map(t -> Views.TokenRow.of(t, now, user.correo())).toList());
        var rows = Views.ClientRow.of(clients.listForOwner(user.id()), c -> user.correo(), logoutUris);
        model.addAttribute("clients", rows);
        // each application's webhook (decisions §21) and its last deliveries
        var webhookRows = Views.WebhookRow.of(rows, webhooks.overview(
                rows.stream().map(Views.ClientRow::clientId).toList(), Views.WebhookRow.SHOWN));
        model.addAttribute("webhooks", webhookRows);
        model.addAttribute("webhookClientIds", webhookRows.stream().map(Views.WebhookRow::clientId)
                .collect(java.util.stream.Collectors.toSet()));
        // the integration help is written by the template from these: the web site's (endpoints, Spring Boot,
        // Node and Python examples) with the first active web application, never a public one, which has no
        // secret to configure; and a launcher's, a console's or a game server's for each active application of
        // those types
        model.addAttribute("issuer", properties.issuerUrl());
        model.addAttribute("example", rows.stream()
                .filter(row -> row.active() && ClientType.WEB.value().equals(row.type())).findFirst().orElse(null));
        model.addAttribute("connectHelp", rows.stream()
                .filter(row -> row.active() && !ClientType.WEB.value().equals(row.type())).toList());
        return VIEW;
    }

    @PostMapping("/dashboard/tokens/create")
    String createToken(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String name,
            @RequestParam(required = false) String scope, Model model, RedirectAttributes redirect) {
        Optional<TokenScope> chosen = scope == null ? Optional.of(TokenScope.DEFAULT) : TokenScope.fromValue(scope);
        Optional<String> problem = Names.problemWith(name).map(p -> switch (p) {
            case MISSING -> "Escribe un nombre para el token.";
            case TOO_LONG -> "El nombre no puede pasar de 100 caracteres.";
            case INVALID -> "El nombre no puede llevar caracteres de control.";
        }).or(() -> chosen.isEmpty() ? Optional.of("Elige un ámbito: perfil o gestión.") : Optional.empty());
        if (problem.isPresent()) {
            redirect.addFlashAttribute("tokenError", problem.get());
            return "redirect:" + Endpoints.DEVELOPER_DASHBOARD + "#tokens";
        }
        var issued = tokens.createPersonal(user.id(), name, chosen.get());
        model.addAttribute("newToken", issued.value());
        model.addAttribute("newTokenName", issued.token().getName());
        return dashboard(user, model);
    }

    @PostMapping("/dashboard/tokens/revoke")
    String revokeToken(@AuthenticationPrincipal AccountPrincipal user, @RequestParam long id,
            @RequestParam(required = false) String back, RedirectAttributes redirect) {
        boolean revoked = tokens.revokeAs(Caller.of(user), id);
        redirect.addFlashAttribute("notice", revoked ? "Token revocado." : "No se encontró ese token.");
        return "redirect:" + backTo(back) + "#tokens";
    }

    /**
     * Registers an application from the page's form ({@link ClientForm}, bound and validated as spring-petclinic's
     * forms are): its credentials in this answer, or the same page again with the field's message and the values
     * typed.
     */
    @PostMapping("/dashboard/clients/create")
    String createClient(@AuthenticationPrincipal AccountPrincipal user,
            @Valid @ModelAttribute("registration") ClientForm form, BindingResult checked, Model model) {
        Map<String, String> errors = FormErrors.of(checked, ClientForm::fieldOf);
        if (errors.isEmpty()) {
            try {
                Optional<String> webhook = checkedWebhookUrl(form.webhookUrl());
                // decisions §28: pushed authorization requests, DPoP-bound tokens; §24: guest players
                var created = clients.register(user.id(), form.name(), form.redirectUri(), form.logoutUris(),
                        form.clientType(), form.backChannelLogoutUri(), form.constraints(), form.acceptsGuests());
                model.addAttribute("newClient", created);
                model.addAttribute("newClientType", form.clientType().value());
                // the webhook's secret, as the client's, only in this answer
                webhook.ifPresent(url -> model.addAttribute("newWebhookSecret", webhooks.register(created.clientId(), url)));
                return dashboard(user, model);
            }
            catch (ClientService.InvalidRegistrationException e) {
                errors.put(e.field(), e.getMessage());
            }
        }
        model.addAttribute("clientErrors", errors);
        model.addAttribute("clientForm", form.asTyped());
        return dashboard(user, model);
    }

    private Optional<String> checkedWebhookUrl(String webhookUrl) {
        try {
            return webhooks.check(webhookUrl);
        }
        catch (Webhooks.InvalidWebhookUrlException e) {
            throw new ClientService.InvalidRegistrationException("webhook_url", e.getMessage());
        }
    }

    /** Enqueues a test event ({@code webhook.prueba}) for one of the developer's applications with a webhook. */
    @PostMapping("/dashboard/clients/webhook-test")
    String sendTestEvent(@AuthenticationPrincipal AccountPrincipal user, @RequestParam("client_id") String clientId,
            RedirectAttributes redirect) {
        boolean sent = webhooks.sendTest(Caller.of(user), clientId);
        redirect.addFlashAttribute("notice", sent ? "Evento de prueba en camino: mira sus envíos en unos segundos."
                : "Esa aplicación no tiene webhook.");
        return "redirect:" + Endpoints.DEVELOPER_DASHBOARD + "#webhooks";
    }

    /**
     * Gives one of the developer's applications a webhook, or a new address or secret for the one it has: the new
     * secret is shown once, in this answer.
     */
    @PostMapping("/dashboard/clients/webhook")
    String replaceWebhook(@AuthenticationPrincipal AccountPrincipal user, @RequestParam("client_id") String clientId,
            @RequestParam(name = "webhook_url", required = false) String webhookUrl, Model model,
            RedirectAttributes redirect) {
        Optional<String> secret;
        try {
            secret = webhooks.replace(Caller.of(user), clientId, webhookUrl);
        }
        catch (Webhooks.InvalidWebhookUrlException e) {
            redirect.addFlashAttribute("notice", e.getMessage());
            return "redirect:" + Endpoints.DEVELOPER_DASHBOARD + "#webhooks";
        }
        if (secret.isEmpty()) {
            redirect.addFlashAttribute("notice", "No existe esa aplicación.");
            return "redirect:" + Endpoints.DEVELOPER_DASHBOARD + "#webhooks";
        }
        model.addAttribute("changedWebhookSecret", secret.get());
        return dashboard(user, model);
    }

    @PostMapping("/dashboard/clients/rotate")
    String rotateSecret(@AuthenticationPrincipal AccountPrincipal user, @RequestParam("client_id") String clientId,
            @RequestParam(required = false) String back, Model model, RedirectAttributes redirect) {
        var rotated = clients.rotateSecretAs(Caller.of(user), clientId);
        if (rotated.isEmpty()) {
            redirect.addFlashAttribute("notice", "No se pudo rotar el secreto de esa aplicación.");
            return "redirect:" + backTo(back) + "#clients";
        }
        model.addAttribute("newClient", rotated.get());
        return dashboard(user, model);
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
        return Endpoints.ADMIN_DASHBOARD.equals(back) ? Endpoints.ADMIN_DASHBOARD : Endpoints.DEVELOPER_DASHBOARD;
    }
}
