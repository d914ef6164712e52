package com.example.identity.dashboard;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountAdministration;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.client.ClientLogoutUris;
import com.example.identity.client.ClientService;
import com.example.identity.common.ListQuery;
import com.example.identity.keys.SigningKeys;
import com.example.identity.minors.BirthDates;
import com.example.identity.minors.ParentalConsents;
import com.example.identity.minors.RefusedField;
import com.example.identity.apitoken.ApiTokenService;

/**
 * {@code /dashboard/admin.php}, for {@code admin} only (rule in the web chain): every user, every token,
 * every application. Users are created with a one-time password, change role, and are disabled (no login,
 * sessions ended, tokens refused) or enabled again. An admin cannot disable or demote themselves.
 */
@Controller
class AdminController {

    static final String VIEW = "dashboard/admin";

    private final AccountAdministration administration;
    private final ApiTokenService tokens;
    private final ClientService clients;
    private final Clock clock;
    private final SigningKeys signingKeys;
    private final ClientLogoutUris logoutUris;
    private final BirthDates birthDates;

    AdminController(AccountAdministration administration, ApiTokenService tokens, ClientService clients, Clock clock,
            SigningKeys signingKeys, ClientLogoutUris logoutUris, BirthDates birthDates) {
        this.birthDates = birthDates;
        this.logoutUris = logoutUris;
        this.signingKeys = signingKeys;
        this.administration = administration;
        this.tokens = tokens;
        this.clients = clients;
        this.clock = clock;
    }

    /**
     * One page ({@code ?page=}, from 1; {@code ?size=}, default 50, at most 200) of each list, optionally
     * searched ({@code ?q=}: e-mail or name of accounts; name, client id or owner's e-mail of tokens and
     * applications). Only the owners of the rows shown are looked up.
     */
    @GetMapping(Endpoints.ADMIN_DASHBOARD)
    String admin(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam(required = false) String page,
            @RequestParam(required = false) String size, @RequestParam(required = false) String q, Model model) {
        ListQuery query;
        try {
            query = ListQuery.parse(page, size, q);
        }
        catch (ListQuery.InvalidListQueryException e) {
            query = ListQuery.FIRST;
            model.addAttribute("listError", e.getMessage());
        }
        Caller caller = Caller.of(admin);
        var users = administration.page(query);
        var tokenPage = tokens.page(caller, query);
        var clientPage = clients.page(caller, query);
        Set<Long> owners = new HashSet<>();
        tokenPage.forEach(t -> owners.add(t.getUserId()));
        clientPage.forEach(c -> owners.add(c.getOwnerId()));
        Map<Long, String> emails = administration.emailsOf(owners);
        Function<Long, String> owner = id -> emails.getOrDefault(id, "#" + id);
        var now = clock.instant();
        model.addAttribute("me", admin);
        model.addAttribute("users", users.getContent());
        model.addAttribute("roles", Role.ASSIGNABLE.stream().map(Role::value).toList());
        model.addAttribute("consentAge", birthDates.consentAge());
        model.addAttribute("tokens", tokenPage.getContent().stream()
                .map(t -> Views.TokenRow.of(t, now, owner.apply(t.getUserId()))).toList());
        model.addAttribute("clients", Views.ClientRow.of(clientPage.getContent(), c -> owner.apply(c.getOwnerId()),
                logoutUris));
        model.addAttribute("q", query.search());
        model.addAttribute("size", query.size());
        model.addAttribute("page", query.page());
        model.addAttribute("prevUrl", query.page() > 1 ? pageUrl(query, query.page() - 1) : null);
        model.addAttribute("nextUrl", users.hasNext() || tokenPage.hasNext() || clientPage.hasNext()
                ? pageUrl(query, query.page() + 1) : null);
        model.addAttribute("signingKeys", signingKeys.states().stream().map(k -> KeyRow.of(k, now)).toList());
        model.addAttribute("keysRotatable", signingKeys.rotatable());
        model.addAttribute("rotationDelay", signingKeys.rotationDelay().toString().substring(2).toLowerCase());
        return VIEW;
    }

    private static String pageUrl(ListQuery query, int page) {
        var url = UriComponentsBuilder.fromPath(Endpoints.ADMIN_DASHBOARD).queryParam("page", page).queryParam("size", query.size());
        if (query.searching()) {
            url.queryParam("q", query.search());
        }
        return url.encode().build().toUriString();
    }

    /** A signing key as the admin page shows it; times are ISO-8601 UTC to the second. */
    record KeyRow(String kid, String state, String createdAt, String activatesAt, String retiredAt) {

        private static final DateTimeFormatter SECOND = DateTimeFormatter
                .ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

        static String second(Instant instant) {
            return SECOND.format(instant);
        }

        static KeyRow of(SigningKeys.KeyState key, Instant now) {
            String state;
            if (key.activatesAt().isAfter(now)) {
                state = "publicada, firmará pronto";
            }
            else if (key.retiredAt() == null || key.retiredAt().isAfter(now)) {
                state = "firma";
            }
            else {
                state = "retirada, solo verifica";
            }
            return new KeyRow(key.kid(), state, KeyRow.second(key.createdAt()), KeyRow.second(key.activatesAt()),
                    key.retiredAt() == null ? "" : KeyRow.second(key.retiredAt()));
        }
    }

    /** First-party applications show no consent page (decisions §12.6): an admin decides which are. */
    @PostMapping("/dashboard/admin/clients/first-party")
    String setFirstParty(@AuthenticationPrincipal AccountPrincipal admin,
            @RequestParam(name = "client_id", required = false) String clientId,
            @RequestParam(name = "first_party", required = false) String firstParty, RedirectAttributes redirect) {
        boolean changed = clientId != null && ("true".equals(firstParty) || "false".equals(firstParty))
                && clients.setFirstParty(Caller.of(admin), clientId, Boolean.parseBoolean(firstParty));
        redirect.addFlashAttribute("notice", !changed ? "No existe esa aplicación."
                : Boolean.parseBoolean(firstParty) ? "La aplicación es de primera parte: no pedirá consentimiento."
                        : "La aplicación es de tercera parte: pedirá consentimiento a cada usuario.");
        return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#clients";
    }

    /**
     * Rotates the signing key (the same as {@code java -jar identity-service.jar rotate-signing-key}): the
     * new key is published at once and signs after {@code identity.signing-key.rotation-delay}; audited.
     */
    @PostMapping("/dashboard/admin/keys/rotate")
    String rotateSigningKey(RedirectAttributes redirect) {
        try {
            var added = signingKeys.rotate();
            redirect.addFlashAttribute("notice", "Nueva clave de firma " + added.kid() + " publicada; firmará desde "
                    + KeyRow.second(added.activatesAt()) + ".");
        }
        catch (SigningKeys.RotationPendingException e) {
            redirect.addFlashAttribute("notice", "Ya hay una rotación en curso: la clave nueva aún no firma.");
        }
        catch (IllegalStateException e) {
            redirect.addFlashAttribute("notice", "La clave de firma viene de identity.signing-key.location: no se rota aquí.");
        }
        return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#keys";
    }

    @PostMapping("/dashboard/admin/users/create")
    String createUser(@AuthenticationPrincipal AccountPrincipal admin,
            @RequestParam(name = "primer_nombre", required = false) String primerNombre,
            @RequestParam(required = false) String correo, @RequestParam(required = false) String rol, Model model,
            RedirectAttributes redirect) {
        try {
            var created = administration.createWithTemporaryPassword(primerNombre, correo, role(rol));
            return showOnce(admin, created, model);
        }
        catch (AccountService.InvalidAccountException e) {
            redirect.addFlashAttribute("userError", e.getMessage());
        }
        catch (AccountService.EmailAlreadyUsedException e) {
            redirect.addFlashAttribute("userError", "Ya existe una cuenta con ese correo.");
        }
        return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#users";
    }

    @PostMapping("/dashboard/admin/users/role")
    String changeRole(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam long id, @RequestParam String rol,
            RedirectAttributes redirect) {
        Role role = role(rol);
        boolean changed = role != null && administration.changeRole(Caller.of(admin), id, role);
        redirect.addFlashAttribute("notice", changed ? "Rol cambiado; sus sesiones se han cerrado."
                : "No se pudo cambiar ese rol (no puedes cambiar el tuyo, y debe quedar al menos un admin activo).");
        return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#users";
    }

    @PostMapping("/dashboard/admin/users/disable")
    String disable(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam long id, RedirectAttributes redirect) {
        boolean done = administration.disable(Caller.of(admin), id);
        redirect.addFlashAttribute("notice", done ? "Cuenta desactivada: sus sesiones se han cerrado y sus tokens ya no valen."
                : "No se pudo desactivar esa cuenta (no puedes desactivar la tuya, y debe quedar al menos un admin activo).");
        return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#users";
    }

    /**
     * Deletes an account with everything it owns (decisions §20); not one's own. The same service as
     * {@code POST /api/usuarios/delete.php} (account/AccountAdministration#delete, over account/AccountDeletion).
     */
    @PostMapping("/dashboard/admin/users/delete")
    String delete(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam long id, RedirectAttributes redirect) {
        boolean done = administration.delete(Caller.of(admin), id) == AccountAdministration.AdminOutcome.DONE;
        redirect.addFlashAttribute("notice", done ? "Cuenta eliminada con todos sus datos; sus sesiones se han cerrado."
                : "No se pudo eliminar esa cuenta (no puedes eliminar la tuya, y debe quedar al menos un admin activo).");
        return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#users";
    }

    /** A new one-time password for someone who lost theirs (not one's own): shown once, their sessions end. */
    @PostMapping("/dashboard/admin/users/reset-password")
    String resetPassword(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam long id, Model model,
            RedirectAttributes redirect) {
        var reset = administration.resetPassword(Caller.of(admin), id);
        if (reset.isEmpty()) {
            redirect.addFlashAttribute("notice", "No se pudo restablecer esa contraseña (no puedes restablecer la tuya).");
            return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#users";
        }
        model.addAttribute("reset", true);
        return showOnce(admin, reset.get(), model);
    }

    private static final DateTimeFormatter EXPIRY = DateTimeFormatter
            .ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /**
     * The one-time password goes out in this response only, never through a flash attribute: flash
     * attributes live in the session, and sessions are rows every instance shares (Spring Session JDBC).
     */
    private String showOnce(AccountPrincipal admin, AccountService.NewAccount account, Model model) {
        model.addAttribute("newUser", account.account().getCorreo());
        model.addAttribute("temporaryPassword", account.temporaryPassword());
        model.addAttribute("temporaryPasswordExpiry", EXPIRY.format(account.account().getOneTimePasswordExpiresAt()));
        return admin(admin, null, null, null, model);
    }

    /**
     * An admin sets an account's birth date (D50), with the parent's address when the date is a child's under the
     * consent age: the same {@link AccountAdministration#update} as {@code POST /api/usuarios/update.php}'s
     * {@code fecha_nacimiento}, the sign-up's rules of a date; a refusal changes nothing and is shown above the list.
     */
    @PostMapping("/dashboard/admin/users/birth-date")
    String setBirthDate(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam long id,
            @RequestParam(name = BirthDates.FIELD, required = false) String fechaNacimiento,
            @RequestParam(name = ParentalConsents.FIELD, required = false) String correoTutor, RedirectAttributes redirect) {
        try {
            var outcome = administration.update(Caller.of(admin), id, null, null, null, birthDates.parse(fechaNacimiento),
                    correoTutor);
            switch (outcome) {
                case DONE -> redirect.addFlashAttribute("notice", "Fecha de nacimiento guardada.");
                case GUEST_BIRTH_DATE -> redirect.addFlashAttribute("userError",
                        "Una cuenta de invitado no tiene fecha de nacimiento: se pide al convertirla desde el juego");
                default -> redirect.addFlashAttribute("notice", "No se encontró esa cuenta.");
            }
        }
        catch (RefusedField e) {
            redirect.addFlashAttribute("userError", e.getMessage());
        }
        return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#users";
    }

    @PostMapping("/dashboard/admin/users/enable")
    String enable(@RequestParam long id, RedirectAttributes redirect) {
        redirect.addFlashAttribute("notice", administration.enable(id) ? "Cuenta activada." : "No se encontró esa cuenta.");
        return "redirect:" + Endpoints.ADMIN_DASHBOARD + "#users";
    }

    private static Role role(String value) {
        return Role.ASSIGNABLE.stream().filter(r -> r.value().equals(value)).findFirst().orElse(null);
    }
}
