package com.example.identity.dashboard;

import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.Role;
import com.example.identity.account.UserAccount;
import com.example.identity.client.ClientService;
import com.example.identity.token.ApiTokenService;

/**
 * {@code /dashboard/admin.php}, for {@code admin} only (rule in the web chain): every user, every token,
 * every application. Users are created with a one-time password, change role, and are disabled (no login,
 * sessions ended, tokens refused) or enabled again. An admin cannot disable or demote themselves.
 */
@Controller
class AdminController {

    static final String VIEW = "dashboard/admin";
    static final String PAGE = "/dashboard/admin.php";

    private final AccountService accounts;
    private final ApiTokenService tokens;
    private final ClientService clients;
    private final Clock clock;

    AdminController(AccountService accounts, ApiTokenService tokens, ClientService clients, Clock clock) {
        this.accounts = accounts;
        this.tokens = tokens;
        this.clients = clients;
        this.clock = clock;
    }

    @GetMapping(PAGE)
    String admin(@AuthenticationPrincipal AccountPrincipal admin, Model model) {
        var users = accounts.listAll();
        Map<Long, String> emails = users.stream().collect(Collectors.toMap(UserAccount::getId, UserAccount::getCorreo));
        Function<Long, String> owner = id -> emails.getOrDefault(id, "#" + id);
        var now = clock.instant();
        model.addAttribute("me", admin);
        model.addAttribute("users", users);
        model.addAttribute("roles", Arrays.stream(Role.values()).map(Role::value).toList());
        model.addAttribute("tokens", tokens.listAll().stream()
                .map(t -> Views.TokenRow.of(t, now, owner.apply(t.getUserId()))).toList());
        model.addAttribute("clients", clients.listAll().stream()
                .map(c -> Views.ClientRow.of(c, owner.apply(c.getOwnerId()))).toList());
        return VIEW;
    }

    @PostMapping("/dashboard/admin/users/create")
    String createUser(@RequestParam(name = "primer_nombre", required = false) String primerNombre,
            @RequestParam(required = false) String correo, @RequestParam(required = false) String rol,
            RedirectAttributes redirect) {
        try {
            var created = accounts.createWithTemporaryPassword(primerNombre, correo, role(rol));
            showOnce(created, redirect);
        }
        catch (AccountService.InvalidAccountException e) {
            redirect.addFlashAttribute("userError", e.getMessage());
        }
        catch (AccountService.EmailAlreadyUsedException e) {
            redirect.addFlashAttribute("userError", "Ya existe una cuenta con ese correo.");
        }
        return "redirect:" + PAGE + "#users";
    }

    @PostMapping("/dashboard/admin/users/role")
    String changeRole(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam long id, @RequestParam String rol,
            RedirectAttributes redirect) {
        Role role = role(rol);
        boolean changed = role != null && accounts.changeRole(Caller.of(admin), id, role);
        redirect.addFlashAttribute("notice", changed ? "Rol cambiado; sus sesiones se han cerrado."
                : "No se pudo cambiar ese rol (no puedes cambiar el tuyo).");
        return "redirect:" + PAGE + "#users";
    }

    @PostMapping("/dashboard/admin/users/disable")
    String disable(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam long id, RedirectAttributes redirect) {
        boolean done = accounts.disable(Caller.of(admin), id);
        redirect.addFlashAttribute("notice", done ? "Cuenta desactivada: sus sesiones se han cerrado y sus tokens ya no valen."
                : "No se pudo desactivar esa cuenta (no puedes desactivar la tuya).");
        return "redirect:" + PAGE + "#users";
    }

    /** A new one-time password for someone who lost theirs (not one's own): shown once, their sessions end. */
    @PostMapping("/dashboard/admin/users/reset-password")
    String resetPassword(@AuthenticationPrincipal AccountPrincipal admin, @RequestParam long id,
            RedirectAttributes redirect) {
        accounts.resetPassword(Caller.of(admin), id).ifPresentOrElse(reset -> {
            showOnce(reset, redirect);
            redirect.addFlashAttribute("reset", true);
        }, () -> redirect.addFlashAttribute("notice", "No se pudo restablecer esa contraseña (no puedes restablecer la tuya)."));
        return "redirect:" + PAGE + "#users";
    }

    private static final java.time.format.DateTimeFormatter EXPIRY = java.time.format.DateTimeFormatter
            .ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(java.time.ZoneOffset.UTC);

    private static void showOnce(AccountService.NewAccount account, RedirectAttributes redirect) {
        redirect.addFlashAttribute("newUser", account.account().getCorreo());
        redirect.addFlashAttribute("temporaryPassword", account.temporaryPassword());
        redirect.addFlashAttribute("temporaryPasswordExpiry",
                EXPIRY.format(account.account().getOneTimePasswordExpiresAt()));
    }

    @PostMapping("/dashboard/admin/users/enable")
    String enable(@RequestParam long id, RedirectAttributes redirect) {
        redirect.addFlashAttribute("notice", accounts.enable(id) ? "Cuenta activada." : "No se encontró esa cuenta.");
        return "redirect:" + PAGE + "#users";
    }

    private static Role role(String value) {
        return Arrays.stream(Role.values()).filter(r -> r.value().equals(value)).findFirst().orElse(null);
    }
}
