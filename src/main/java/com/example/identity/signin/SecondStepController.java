package com.example.identity.signin;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.abuse.LoginThrottle;
import com.example.identity.account.AccountService;
import com.example.identity.account.SecondFactorAdded;
import com.example.identity.audit.AuditEvent;
import com.example.identity.mfa.SecondFactors;

/**
 * The pages of the login's second step (decisions §17): {@code /login/segundo-paso} asks for a code of the
 * authenticator app or a recovery code; {@code /login/segundo-paso/alta} sets TOTP up first, for an account
 * whose role requires a second factor and has none, with the account's password in the same form. Wrong codes are throttled like wrong passwords: each is a
 * failure of the login throttle's (e-mail, address) pair and of the account's and the address's budgets,
 * shared by every instance, and a locked pair is refused here as at the login page (429). The throttle counts
 * the login as a success only here, once it is whole. After 5 wrong codes the password must be typed again.
 * Without a login waiting in the session both pages send the browser to the login page.
 */
@Controller
public class SecondStepController {

    public static final String SECRET = "identity.mfa.enrolment-secret";
    public static final String ISSUER_NAME = "Identidad";
    /** What the login page says to a throttled attempt (templates/signin/login.html), said here too. */
    static final String THROTTLED = "Demasiados intentos. Espera un momento e inténtalo de nuevo más tarde.";

    private final SecondStep step;
    private final SecondFactors factors;
    private final LoginThrottle throttle;
    private final ApplicationEventPublisher events;
    private final AccountService accounts;
    private final RegisteredClientRepository clients;

    SecondStepController(SecondStep step, SecondFactors factors, LoginThrottle throttle, ApplicationEventPublisher events,
            AccountService accounts, RegisteredClientRepository clients) {
        this.accounts = accounts;
        this.clients = clients;
        this.step = step;
        this.factors = factors;
        this.throttle = throttle;
        this.events = events;
    }

    @GetMapping(Endpoints.SECOND_STEP)
    String form(HttpServletRequest request, HttpServletResponse response, Model model) {
        SecondStep.PendingLogin pending = SecondStep.pending(request);
        if (pending == null || pending.enrol()) {
            return pending == null ? "redirect:/login/" : "redirect:" + Endpoints.SECOND_STEP_ENROL;
        }
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        // the form's answer leads, through the authorization endpoint, to the application's address
        ReturnToApplication.allowFormsToReach(response, pending.redirect(), clients);
        model.addAttribute("email", pending.user().correo());
        model.addAttribute("totp", step.hasTotp(pending.user()));
        model.addAttribute("passkey", step.hasPasskey(pending.user()));
        model.addAttribute("redirect", pending.redirect());
        return "signin/second-step";
    }

    @PostMapping(Endpoints.SECOND_STEP)
    String verify(@RequestParam(required = false) String codigo, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        SecondStep.PendingLogin pending = SecondStep.pending(request);
        if (pending == null || pending.enrol()) {
            return "redirect:/login/";
        }
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        // the form's answer leads, through the authorization endpoint, to the application's address
        ReturnToApplication.allowFormsToReach(response, pending.redirect(), clients);
        String email = pending.user().correo();
        String address = LoginThrottle.addressOf(request);
        model.addAttribute("email", email);
        model.addAttribute("totp", step.hasTotp(pending.user()));
        model.addAttribute("passkey", step.hasPasskey(pending.user()));
        model.addAttribute("redirect", pending.redirect());
        // the code's unit is taken before it is checked, so simultaneous guesses cannot all pass the throttle
        try (LoginThrottle.Attempt attempt = throttle.tryAcquire(email, address)) {
            if (attempt == null) {
                // the pair is locked or waiting, whether by wrong passwords or wrong codes: the login page's words
                response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
                model.addAttribute("error", THROTTLED);
                return "signin/second-step";
            }
            SecondFactors.Proof proof = factors.verify(pending.user().id(), codigo);
            if (proof == SecondFactors.Proof.NONE) {
                boolean locked = attempt.failed();
                events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, "segundo factor", email));
                if (locked) {
                    events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_LOCKED, null, email));
                }
                SecondStep.PendingLogin failed = pending.failed();
                if (failed.failures() >= SecondStep.MAX_FAILURES) {
                    SecondStep.forget(request);
                    return "redirect:/login/?error=1";
                }
                SecondStep.remember(request, failed);
                response.setStatus(HttpStatus.BAD_REQUEST.value());
                model.addAttribute("error", "Código incorrecto. Escribe el código de 6 cifras que muestra tu "
                        + "aplicación ahora, o uno de tus códigos de recuperación.");
                return "signin/second-step";
            }
            if (!step.complete(request, response, pending)) {
                return "redirect:/login/?error=1"; // disabled meanwhile: the unit is given back, nothing counted
            }
            attempt.succeeded();
            events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_SUCCEEDED,
                    proof == SecondFactors.Proof.RECOVERY_CODE ? "con código de recuperación" : null, email));
            return "redirect:" + LoginSuccessHandler.target(pending.password(), pending.redirect());
        }
    }

    @GetMapping(Endpoints.SECOND_STEP_ENROL)
    String enrolForm(HttpServletRequest request, HttpServletResponse response, Model model) {
        SecondStep.PendingLogin pending = SecondStep.pending(request);
        if (pending == null || !pending.enrol()) {
            return pending == null ? "redirect:/login/" : "redirect:" + Endpoints.SECOND_STEP;
        }
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        // the form's answer leads, through the authorization endpoint, to the application's address
        ReturnToApplication.allowFormsToReach(response, pending.redirect(), clients);
        enrolment(request, pending.user().correo(), model);
        return "signin/second-step-enrol";
    }

    /**
     * Sets TOTP up on the way in. The account's password is asked in the same form, as at
     * {@code /cuenta/seguridad/totp}: the login that waits here may be an old session that an application asked
     * to step up ({@code acr_values=mfa}), and a session alone (left open, or a stolen cookie) must not put its
     * own authenticator on the account. A wrong password is a failed login of the account from this address
     * (the login throttle counts it, and refuses here as at the login page); after {@link SecondStep#MAX_FAILURES}
     * wrong passwords or codes the login starts again. A factor added ends the account's other sessions and
     * e-mails the address ({@link SecondFactorAdded}).
     */
    @PostMapping(Endpoints.SECOND_STEP_ENROL)
    String enrol(@RequestParam(required = false) String codigo, @RequestParam(required = false) String contrasena,
            HttpServletRequest request, HttpServletResponse response, Model model) {
        SecondStep.PendingLogin pending = SecondStep.pending(request);
        if (pending == null || !pending.enrol()) {
            return "redirect:/login/";
        }
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        // the form's answer leads, through the authorization endpoint, to the application's address
        ReturnToApplication.allowFormsToReach(response, pending.redirect(), clients);
        String email = pending.user().correo();
        // the password's unit is taken before it is checked; a wrong one settles it (account/PasswordCheckFailed)
        try (LoginThrottle.Attempt attempt = throttle.tryAcquire(request, email)) {
            if (attempt == null) {
                response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
                enrolment(request, email, model);
                model.addAttribute("error", THROTTLED);
                return "signin/second-step-enrol";
            }
            boolean passwordRight = accounts.passwordMatches(pending.user().id(), contrasena);
            String secret = (String) request.getSession().getAttribute(SECRET);
            List<String> codes = !passwordRight || secret == null ? List.of()
                    : factors.enable(pending.user().id(), secret, codigo);
            if (codes.isEmpty()) {
                return enrolmentRefused(pending, passwordRight, request, response, model);
            }
            request.getSession().removeAttribute(SECRET);
            // the factor stands from here: the other sessions end and the address is told (SecondFactorAddedNotice),
            // before the login changes this session's id (the stored session keeps its current one until the answer)
            events.publishEvent(new SecondFactorAdded(pending.user().id(), email, SecondFactorAdded.Factor.TOTP,
                    request.getSession().getId(), request.getRemoteAddr()));
            if (!step.complete(request, response, pending)) {
                return "redirect:/login/?error=1";
            }
            attempt.succeeded();
            events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_SUCCEEDED, null, email));
            model.addAttribute("codes", codes);
            model.addAttribute("next", LoginSuccessHandler.target(pending.password(), pending.redirect()));
            return "settings/recovery-codes";
        }
    }

    /** A wrong password or code at the enrolment: the form again, or the login page after too many. */
    private String enrolmentRefused(SecondStep.PendingLogin pending, boolean passwordRight, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        String email = pending.user().correo();
        if (!passwordRight) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.LOGIN_FAILED, "contraseña al activar el segundo factor",
                    email));
        }
        SecondStep.PendingLogin failed = pending.failed();
        if (failed.failures() >= SecondStep.MAX_FAILURES) {
            SecondStep.forget(request);
            return "redirect:/login/?error=1";
        }
        SecondStep.remember(request, failed);
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        enrolment(request, email, model);
        if (!passwordRight) {
            model.addAttribute("passwordError", "La contraseña no es correcta");
        }
        else {
            model.addAttribute("error", "Código incorrecto. Escribe el código de 6 cifras que muestra ahora tu "
                    + "aplicación de autenticación.");
        }
        return "signin/second-step-enrol";
    }

    /** The secret being set up (kept in the session until confirmed) and its QR code. */
    void enrolment(HttpServletRequest request, String email, Model model) {
        String secret = (String) request.getSession().getAttribute(SECRET);
        if (secret == null) {
            secret = factors.newSecret();
            request.getSession().setAttribute(SECRET, secret);
        }
        model.addAttribute("email", email);
        model.addAttribute("secret", secret);
        model.addAttribute("qr", factors.qrCode(ISSUER_NAME, email, secret));
    }
}
