package com.example.identity.consent;

import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.oidc.RequestedClaims;
import com.example.identity.signin.ReturnToApplication;
import com.example.identity.web.PagePolicy;

/**
 * The consent page (decisions §12.6): {@code GET /oauth/consent?request=<the authorization request>}
 * shows what a third-party application asks for (its name, who registered it, what it will see), and the
 * form posts the user's {@code decision} with the page's CSRF token. {@code allow} records the consent and
 * sends the browser back to the authorization request, which then issues the code ({@link ConsentDecisions});
 * {@code deny} sends {@code error=access_denied} and the {@code state} to the application's registered
 * redirect URI. The request is read again and checked here (a local authorization request URL, a known
 * application that is not revoked, its registered redirect URI): nothing is redirected anywhere that the
 * authorization endpoint would not redirect to.
 */
@Controller
public class ConsentController {

    static final String VIEW = "consent/consent";
    /** What each scope lets an application see, as the page says it. */
    public static final Map<String, String> SCOPES = scopes();

    private final RegisteredClientRepository clients;
    private final AccountService accounts;
    private final Consents consents;
    private final Clock clock;

    ConsentController(RegisteredClientRepository clients, AccountService accounts, Consents consents, Clock clock) {
        this.clients = clients;
        this.accounts = accounts;
        this.consents = consents;
        this.clock = clock;
    }

    private static Map<String, String> scopes() {
        Map<String, String> scopes = new LinkedHashMap<>();
        scopes.put("openid", "Que eres tú: un identificador de tu cuenta en este servicio");
        scopes.put("profile", "Tu nombre");
        scopes.put("email", "Tu dirección de correo electrónico");
        scopes.put("offline_access", "Acceso sin conexión: seguir usando estos datos cuando no estés conectado, "
                + "hasta que retires el permiso");
        return scopes;
    }

    /** An authorization request, as far as this page needs it, once checked. */
    record Request(String url, RegisteredClient client, String redirectUri, Set<String> scopes, @Nullable String state) {
    }

    @GetMapping(Endpoints.CONSENT)
    String page(@RequestParam(required = false) String request, HttpServletResponse response, Model model) {
        Request checked = check(request);
        if (checked == null) {
            return invalid(response, model);
        }
        model.addAttribute("request", checked.url());
        model.addAttribute("clientName", checked.client().getClientName());
        Object owner = checked.client().getClientSettings().getSetting(DatabaseRegisteredClientRepository.OWNER);
        model.addAttribute("ownerName", owner instanceof Long id
                ? accounts.findById(id).map(a -> a.getPrimerNombre()).orElse("—") : "—");
        Map<String, String> asked = new LinkedHashMap<>();
        checked.scopes().forEach(scope -> asked.put(scope, SCOPES.getOrDefault(scope, scope)));
        if (asked.isEmpty()) {
            asked.put("openid", SCOPES.get("openid"));
        }
        model.addAttribute("scopes", asked);
        // a web site's host; a native application's private-use scheme has none: its scheme names the app
        var back = UriComponentsBuilder.fromUriString(checked.redirectUri()).build();
        model.addAttribute("redirectHost", back.getHost() != null ? back.getHost() : back.getScheme() + ":");
        response.setHeader("Cache-Control", "no-store");
        // both answers of the form end at the application's address, after the authorization endpoint
        response.setHeader(PagePolicy.HEADER, PagePolicy.allowingFormsTo(checked.redirectUri()));
        return VIEW;
    }

    @PostMapping(Endpoints.CONSENT)
    String decide(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String request,
            @RequestParam(required = false) String decision, HttpServletRequest http, HttpServletResponse response,
            Model model) {
        Request checked = check(request);
        if (checked == null || !("allow".equals(decision) || "deny".equals(decision))) {
            return invalid(response, model);
        }
        if ("deny".equals(decision)) {
            var target = UriComponentsBuilder.fromUriString(checked.redirectUri())
                    .queryParam("error", "access_denied")
                    .queryParam("error_description", "{description}");
            Map<String, String> values = new LinkedHashMap<>();
            values.put("description", "El usuario no ha dado su consentimiento");
            if (checked.state() != null) {
                target.queryParam("state", "{state}");
                values.put("state", checked.state());
            }
            return "redirect:" + target.encode().buildAndExpand(values).toUriString();
        }
        consents.grant(user.id(), checked.client().getClientId(), checked.scopes());
        ConsentDecisions.remember(http.getSession(), checked.url(), clock.instant());
        return "redirect:" + checked.url();
    }

    /** The authorization request behind {@code url}, or null when it is not one this page may act on. */
    @Nullable Request check(@Nullable String url) {
        ReturnToApplication back = ReturnToApplication.of(url, clients);
        if (back == null) {
            return null;
        }
        String scope = back.parameter("scope");
        Set<String> scopes = scope == null || scope.isBlank() ? new LinkedHashSet<>()
                : new LinkedHashSet<>(Arrays.asList(scope.trim().split(" +")));
        // what the claims parameter asks for is seen, and consented to, like the scope that brings it
        scopes.addAll(RequestedClaims.consentScopes(back.parameter("claims")));
        return new Request(back.url(), back.client(), back.redirectUri(), scopes, back.parameter("state"));
    }

    private static String invalid(HttpServletResponse response, Model model) {
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        model.addAttribute("message", "solicitud de consentimiento inválida");
        return "oauth/error";
    }
}
