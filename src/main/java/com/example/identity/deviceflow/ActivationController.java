package com.example.identity.deviceflow;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.abuse.ClientAddress;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.LoginFactors;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.consent.Consents;
import com.example.identity.minors.Minors;
import com.example.identity.sanctions.Sanctions;
import com.example.identity.sanctions.SuspensionNotice;

/**
 * {@code /activar} (RFC 8628 §3.3, decisions §16): where a logged-in user (the login page sends them back
 * here, code included) types the code a console shows. One form, one text field {@code user_code}
 * ({@code ?code=} pre-fills it; case, spaces and the dash do not matter). A right code shows the
 * application, who registered it and what it will see, with {@code <button name="decision" value="allow">}
 * and {@code value="deny"}; a POST with a code and a decision decides at once. Approving records the
 * consent (listed, and withdrawable, at {@code /cuenta/aplicaciones}).
 *
 * <p>Guessing: every code typed takes one unit of the address's and of the account's budget
 * ({@link UserCodeGuesses}, in the database, so shared by every instance and atomic under parallel
 * requests) before it is looked up, and a right code gives them back; when either is spent the page answers
 * 429 with {@code Retry-After} without looking anything up. The budget is per account rather than per
 * session: every session of the page belongs to an account, so an account's budget bounds all its sessions
 * together, which a per-session budget would not. The arithmetic is in docs/native-and-device.md.
 *
 * <p>A person whom a sanction keeps out of the application (one there, or in every application: decisions §26) is
 * shown why and until when, with a 403, and nothing is decided: the console's code stays pending until it expires.
 * So is a child whose parent has not allowed the account yet (decisions §27), told that it waits for that.
 */
@Controller
class ActivationController {

    static final String VIEW = "deviceflow/activate";
    /** What each scope lets an application see, as the page says it (the consent page's words). */
    private static final Map<String, String> SCOPES = Map.of(
            "openid", "Que eres tú: un identificador de tu cuenta en este servicio",
            "profile", "Tu nombre",
            "email", "Tu dirección de correo electrónico",
            "offline_access", "Acceso sin conexión: seguir usando estos datos cuando no estés conectado, "
                    + "hasta que retires el permiso");
    private static final List<String> SCOPE_ORDER = List.of("openid", "profile", "email", "offline_access");

    static final String AWAITING_CONSENT = "Tu cuenta espera el permiso de tu madre, padre o tutor: hasta entonces no puedes "
            + "autorizar dispositivos.";

    private final DeviceAuthorizations devices;
    private final RegisteredClientRepository clients;
    private final AccountService accounts;
    private final Consents consents;
    private final UserCodeGuesses guesses;
    private final Sanctions sanctions;
    private final Clock clock;
    private final Minors minors;

    ActivationController(DeviceAuthorizations devices, RegisteredClientRepository clients, AccountService accounts,
            Consents consents, UserCodeGuesses guesses, Sanctions sanctions, Clock clock, Minors minors) {
        this.minors = minors;
        this.sanctions = sanctions;
        this.devices = devices;
        this.clients = clients;
        this.accounts = accounts;
        this.consents = consents;
        this.guesses = guesses;
        this.clock = clock;
    }

    @GetMapping(Endpoints.ACTIVATION)
    String form(@RequestParam(name = "code", required = false) String code, HttpServletResponse response, Model model) {
        model.addAttribute("userCode", code == null ? "" : code.strip().substring(0, Math.min(code.strip().length(), 32)));
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        return VIEW;
    }

    @PostMapping(Endpoints.ACTIVATION)
    String submit(@AuthenticationPrincipal AccountPrincipal user, Authentication authentication,
            @RequestParam(name = "user_code", required = false) String typed,
            @RequestParam(required = false) String decision, HttpServletRequest request, HttpServletResponse response,
            Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        // one unit of the address's budget and one of the account's are taken before the lookup, in one
        // conditional UPDATE each, and given back when the code is right: parallel guesses cannot all pass a
        // check made before any of them is counted
        String[] budgets = { UserCodeGuesses.address(ClientAddress.key(request)), UserCodeGuesses.account(user.id()) };
        long wait = guesses.take(budgets);
        if (wait > 0) {
            response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(wait));
            model.addAttribute("userCode", "");
            model.addAttribute("error", "Demasiados códigos incorrectos. Vuelve a intentarlo dentro de "
                    + minutes(wait) + ".");
            return VIEW;
        }
        Optional<DeviceAuthorization> run = UserCodes.normalize(typed).flatMap(devices::findPending);
        if (run.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("userCode", typed == null ? "" : typed.strip().substring(0, Math.min(typed.strip().length(), 32)));
            model.addAttribute("error", "Código incorrecto o caducado. Comprueba el código que muestra tu dispositivo.");
            return VIEW;
        }
        guesses.giveBack(budgets);
        RegisteredClient client = clients.findByClientId(run.get().clientId());
        if (client == null || DatabaseRegisteredClientRepository.isRevoked(client)) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("userCode", "");
            model.addAttribute("error", "Esta aplicación ya no está disponible.");
            return VIEW;
        }
        var sanction = sanctions.inForce(user.id(), client.getClientId());
        if (sanction.isPresent()) {
            response.setStatus(HttpStatus.FORBIDDEN.value());
            model.addAttribute("userCode", "");
            model.addAttribute("suspension", SuspensionNotice.of(sanction.get()));
            return VIEW;
        }
        if (minors.awaitingConsent(user.id())) {
            // decisions §27: nothing is decided until a parent allowed the account; the console's code stays pending
            response.setStatus(HttpStatus.FORBIDDEN.value());
            model.addAttribute("userCode", "");
            model.addAttribute("error", AWAITING_CONSENT);
            return VIEW;
        }
        String userCode = UserCodes.display(UserCodes.normalize(typed).orElseThrow());
        if (!"allow".equals(decision) && !"deny".equals(decision)) {
            return confirmation(run.get(), client, userCode, model);
        }
        boolean allow = "allow".equals(decision);
        Instant authTime = Optional.ofNullable(LoginFactors.passwordLoginTime(authentication)).orElse(clock.instant());
        if (!devices.decide(run.get().getId(), user.id(), allow, authTime,
                List.copyOf(LoginFactors.methods(authentication)))) {
            // decided meanwhile in another tab, or expired this very second
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("userCode", "");
            model.addAttribute("error", "Este código ya se ha usado o ha caducado.");
            return VIEW;
        }
        if (allow) {
            consents.grant(user.id(), client.getClientId(), run.get().scopes());
        }
        model.addAttribute("done", allow ? "allowed" : "denied");
        model.addAttribute("clientName", client.getClientName());
        return VIEW;
    }

    private String confirmation(DeviceAuthorization run, RegisteredClient client, String userCode, Model model) {
        model.addAttribute("confirm", true);
        model.addAttribute("userCode", userCode);
        model.addAttribute("clientName", client.getClientName());
        Object owner = client.getClientSettings().getSetting(DatabaseRegisteredClientRepository.OWNER);
        model.addAttribute("ownerName", owner instanceof Long id
                ? accounts.findById(id).map(a -> a.getPrimerNombre()).orElse("—") : "—");
        Map<String, String> asked = new LinkedHashMap<>();
        SCOPE_ORDER.stream().filter(run.scopes()::contains).forEach(scope -> asked.put(scope, SCOPES.get(scope)));
        if (asked.isEmpty()) {
            asked.put("openid", SCOPES.get("openid"));
        }
        model.addAttribute("scopes", asked);
        return VIEW;
    }

    private static String minutes(long seconds) {
        long minutes = (seconds + 59) / 60;
        return minutes == 1 ? "1 minuto" : minutes + " minutos";
    }
}
