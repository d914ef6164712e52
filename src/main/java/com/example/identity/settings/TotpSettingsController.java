package com.example.identity.settings;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.SecondFactorAdded;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.session.OpenSessions;
import com.example.identity.signin.SecondStep;
import com.example.identity.signin.SecondStepController;

/**
 * The second factor at {@code /cuenta/seguridad} (decisions §17): set up TOTP (QR code drawn on the
 * server, the secret also in text, a code to confirm), new recovery codes, and turning it off; all three ask
 * for the password (throttled as a login, abuse/LoginThrottleFilter). Setting it up or turning it off ends
 * every other session of the account, as a password change does, and setting it up e-mails the address
 * ({@link SecondFactorAdded}); every change is audited ({@link SecondFactors}).
 */
@Controller
class TotpSettingsController {


    private final SecondFactors factors;
    private final SecondStep step;
    private final AccountService accounts;
    private final OpenSessions sessions;
    private final ApplicationEventPublisher events;

    TotpSettingsController(SecondFactors factors, SecondStep step, AccountService accounts, OpenSessions sessions,
            ApplicationEventPublisher events) {
        this.factors = factors;
        this.step = step;
        this.accounts = accounts;
        this.sessions = sessions;
        this.events = events;
    }

    @GetMapping(Endpoints.ACCOUNT_TOTP)
    String form(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String bloqueado,
            HttpServletRequest request, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        enrolment(request, user.correo(), model);
        // the login throttle refused the password before it reached this controller (abuse/LoginThrottleFilter)
        model.addAttribute("throttled", bloqueado != null);
        return "settings/totp";
    }

    /**
     * Sets TOTP up, or replaces it (the old secret and recovery codes end): the password confirms it, so a
     * session alone (left open, or a stolen cookie) cannot put its own authenticator app on the account.
     */
    @PostMapping(Endpoints.ACCOUNT_TOTP)
    String enable(@AuthenticationPrincipal AccountPrincipal user, Authentication authentication,
            @RequestParam(required = false) String codigo, @RequestParam(required = false) String contrasena,
            HttpServletRequest request, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!accounts.passwordMatches(user.id(), contrasena)) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            enrolment(request, user.correo(), model);
            model.addAttribute("passwordError", "La contraseña no es correcta");
            return "settings/totp";
        }
        String secret = (String) request.getSession().getAttribute(SecondStepController.SECRET);
        List<String> codes = secret == null ? List.of() : factors.enable(user.id(), secret, codigo);
        if (codes.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            enrolment(request, user.correo(), model);
            model.addAttribute("error", "Código incorrecto. Escribe el código de 6 cifras que muestra ahora tu "
                    + "aplicación de autenticación.");
            return "settings/totp";
        }
        request.getSession().removeAttribute(SecondStepController.SECRET);
        step.addFactor(request, response, authentication);
        // ends the other sessions and tells the address (SecondFactorAddedNotice)
        events.publishEvent(new SecondFactorAdded(user.id(), user.correo(), SecondFactorAdded.Factor.TOTP,
                request.getSession().getId(), request.getRemoteAddr()));
        model.addAttribute("codes", codes);
        model.addAttribute("next", Endpoints.ACCOUNT_SECURITY);
        return "settings/recovery-codes";
    }

    @PostMapping(Endpoints.ACCOUNT_TOTP_CODES)
    String newCodes(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String contrasena,
            HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!factors.hasTotp(user.id())) {
            return "redirect:" + Endpoints.ACCOUNT_SECURITY; // no codes without a second factor; nothing was wrong
        }
        if (!accounts.passwordMatches(user.id(), contrasena)) {
            return "redirect:" + Endpoints.ACCOUNT_SECURITY + "?contrasena=mal";
        }
        model.addAttribute("codes", factors.regenerateRecoveryCodes(user.id()));
        model.addAttribute("next", Endpoints.ACCOUNT_SECURITY);
        return "settings/recovery-codes";
    }

    @PostMapping(Endpoints.ACCOUNT_TOTP_DISABLE)
    String disable(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String contrasena,
            HttpServletRequest request) {
        if (!step.mayDisable(user)) {
            return "redirect:/cuenta/seguridad";
        }
        if (!accounts.passwordMatches(user.id(), contrasena)) {
            return "redirect:/cuenta/seguridad?contrasena=mal";
        }
        factors.disable(user.id());
        sessions.endOthers(user.correo(), request.getSession().getId());
        return "redirect:/cuenta/seguridad?desactivada";
    }

    private void enrolment(HttpServletRequest request, String email, Model model) {
        String secret = (String) request.getSession().getAttribute(SecondStepController.SECRET);
        if (secret == null) {
            secret = factors.newSecret();
            request.getSession().setAttribute(SecondStepController.SECRET, secret);
        }
        model.addAttribute("secret", secret);
        model.addAttribute("qr", factors.qrCode(SecondStepController.ISSUER_NAME, email, secret));
    }
}
