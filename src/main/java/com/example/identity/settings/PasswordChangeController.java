package com.example.identity.settings;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;

import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.common.LocalRedirect;
import com.example.identity.signin.ReturnToApplication;
import com.example.identity.web.FormErrors;

/**
 * {@code /cuenta/contrasena}: a logged-in user changes their password, proving the current one. Users
 * who logged in with a one-time password from an admin are sent here first ({@link PasswordChangeGate}).
 * The session continues under a new id, with the refreshed account; every other session of the account
 * ends. A wrong current password counts as a failed login of the login throttle, which refuses the form
 * as it refuses the login page.
 */
@Controller
class PasswordChangeController {

    static final String VIEW = "settings/password";
    static final String THROTTLED = "Demasiados intentos fallidos. Espera unos minutos antes de volver a intentarlo.";

    private final AccountService accounts;
    private final SecurityContextRepository sessions = new HttpSessionSecurityContextRepository();

    private final RegisteredClientRepository clients;

    PasswordChangeController(AccountService accounts, RegisteredClientRepository clients) {
        this.accounts = accounts;
        this.clients = clients;
    }

    @GetMapping(Endpoints.ACCOUNT_PASSWORD)
    String form(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String redirect,
            @RequestParam(required = false) String hecho, @RequestParam(required = false) String bloqueado,
            HttpServletResponse response, Model model) {
        // a one-time password changed on the way to an application: the form's answer leads back to it
        ReturnToApplication.allowFormsToReach(response, LocalRedirect.orNull(redirect), clients);
        model.addAttribute("required", user.passwordChangeRequired());
        model.addAttribute("redirect", LocalRedirect.orNull(redirect));
        model.addAttribute("done", hecho != null);
        if (bloqueado != null) {
            // the login throttle refused the attempt before it reached this controller (abuse/LoginThrottleFilter)
            model.addAttribute("errors", java.util.Map.of("actual", THROTTLED));
        }
        return VIEW;
    }

    /**
     * The change, from the form ({@link PasswordChangeForm}, bound and validated as spring-petclinic's forms are):
     * the form's refusals, then the account's (the current password, the new one's rules), each shown on the same
     * page with a 400.
     */
    @PostMapping(Endpoints.ACCOUNT_PASSWORD)
    String change(@AuthenticationPrincipal AccountPrincipal user, @Valid PasswordChangeForm form, BindingResult checked,
            Model model, HttpServletRequest request, HttpServletResponse response) {
        String back = LocalRedirect.orNull(form.redirect());
        ReturnToApplication.allowFormsToReach(response, back, clients);
        model.addAttribute("required", user.passwordChangeRequired());
        model.addAttribute("redirect", back);
        if (checked.hasErrors()) {
            model.addAttribute("errors", FormErrors.of(checked, PasswordChangeForm::fieldOf));
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            return VIEW;
        }
        try {
            var updated = AccountPrincipal.of(accounts.changePassword(user.id(), form.actual(), form.nueva(),
                    request.getSession().getId()));
            updated.eraseCredentials();
            var context = SecurityContextHolder.createEmptyContext();
            context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(updated, null,
                    SecurityContextHolder.getContext().getAuthentication().getAuthorities()));
            SecurityContextHolder.setContext(context);
            request.changeSessionId();
            sessions.saveContext(context, request, response);
        }
        catch (AccountService.InvalidAccountException e) {
            model.addAttribute("errors", Map.of(e.field(), e.getMessage()));
            // refused as the account's other forms refuse (400), the page shown again with the reason
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            return VIEW;
        }
        if (back != null) {
            return "redirect:" + back;
        }
        return "redirect:" + Endpoints.ACCOUNT_PASSWORD + "?hecho";
    }
}
