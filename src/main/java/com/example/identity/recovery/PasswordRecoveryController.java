package com.example.identity.recovery;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.abuse.ClientAddress;
import com.example.identity.abuse.RateLimits;
import com.example.identity.account.AccountService;
import com.example.identity.web.FormErrors;

/**
 * The two pages of password recovery (decisions §17), open to anyone: {@code /login/recuperar} takes an
 * address (field {@code correo}) and always gives the same answer, at once; {@code /login/restablecer?token=}
 * shows the new-password form for a link that works and sets it. Requests per address are limited
 * ({@link RateLimits.Budget#RECOVERY_REQUESTS}, shared by every instance); links carry 256 bits, so they are
 * not guessed. Both pages are {@code no-store}; the link's page sends no {@code Referer} (the token is in its
 * address) and loads nothing from elsewhere.
 */
@Controller
class PasswordRecoveryController {

    static final String SENT = "Si hay una cuenta con esa dirección, te hemos enviado un correo con un enlace para "
            + "elegir una nueva contraseña. El enlace sirve durante 30 minutos y una sola vez.";

    private final PasswordRecovery recovery;
    private final RateLimits limits;

    PasswordRecoveryController(PasswordRecovery recovery, RateLimits limits) {
        this.recovery = recovery;
        this.limits = limits;
    }

    @GetMapping(Endpoints.RECOVERY_REQUEST)
    String requestForm(HttpServletResponse response) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        return "recovery/recover";
    }

    @PostMapping(Endpoints.RECOVERY_REQUEST)
    String request(@RequestParam(required = false) String correo, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        String typed = correo == null ? "" : correo.strip();
        if (!AccountService.isValidEmail(typed)) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("error", "Escribe una dirección de correo válida.");
            model.addAttribute("correo", typed.length() > 254 ? "" : typed);
            return "recovery/recover";
        }
        String address = ClientAddress.key(request);
        long wait = limits.blockedFor(RateLimits.Budget.RECOVERY_REQUESTS, address);
        if (wait > 0) {
            response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(wait));
            model.addAttribute("error", "Demasiadas solicitudes desde tu conexión. Vuelve a intentarlo dentro de "
                    + Math.max(1, (wait + 59) / 60) + " minutos.");
            return "recovery/recover";
        }
        limits.recordFailure(RateLimits.Budget.RECOVERY_REQUESTS, address);
        recovery.request(typed);
        model.addAttribute("sent", SENT);
        return "recovery/recover";
    }

    @GetMapping(Endpoints.RECOVERY_RESET)
    String resetForm(@RequestParam(required = false) String token, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!recovery.isUsable(token)) {
            return expired(response, model);
        }
        model.addAttribute("token", token);
        return "recovery/reset";
    }

    /**
     * The new password, from the form ({@link PasswordResetForm}, bound and validated as spring-petclinic's forms
     * are): a link that no longer works first, then the form's refusals, then the account's rules, each shown on
     * the same page.
     */
    @PostMapping(Endpoints.RECOVERY_RESET)
    String reset(@Valid PasswordResetForm form, BindingResult checked, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!recovery.isUsable(form.token())) {
            return expired(response, model);
        }
        model.addAttribute("token", form.token());
        if (checked.hasErrors()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("errors", FormErrors.of(checked, PasswordResetForm::fieldOf));
            return "recovery/reset";
        }
        try {
            if (!recovery.reset(form.token(), form.nueva())) {
                return expired(response, model);
            }
        }
        catch (AccountService.InvalidAccountException e) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("errors", Map.of("nueva", e.getMessage()));
            return "recovery/reset";
        }
        catch (PasswordRecovery.LinkUsedMeanwhile e) {
            return expired(response, model);
        }
        model.addAttribute("done", true);
        return "recovery/reset";
    }

    private static String expired(HttpServletResponse response, Model model) {
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        model.addAttribute("expired", true);
        return "recovery/reset";
    }
}
