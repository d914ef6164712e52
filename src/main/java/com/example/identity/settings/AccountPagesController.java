package com.example.identity.settings;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.support.ExtendedServletRequestDataBinder;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.EmailChanges;
import com.example.identity.audit.AuditEvent;
import com.example.identity.mfa.RecentLogin;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.passkey.Passkeys;
import com.example.identity.session.OpenSessions;
import com.example.identity.signin.SecondStep;

/**
 * The account pages of decisions §17 that are not elsewhere: {@code /cuenta/} (who you are here, your
 * name and e-mail address to change, and the way to everything else about your account) and {@code /cuenta/seguridad} (the second factor, whose forms
 * are {@link TotpSettingsController}'s; open sessions: device, address, last seen; end one, or all the others). The password page is {@link PasswordChangeController}, the
 * applications page {@link GivenConsentsController}. Every form carries the page's CSRF token.
 */
@Controller
class AccountPagesController {

    static final DateTimeFormatter DATES = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final OpenSessions sessions;
    private final SecondFactors factors;
    private final SecondStep secondStep;
    private final Passkeys passkeys;
    private final EmailChanges emailChanges;
    private final AccountService accounts;
    private final RecentLogin recentLogin;
    private final ApplicationEventPublisher events;

    AccountPagesController(OpenSessions sessions, SecondFactors factors, SecondStep secondStep, Passkeys passkeys,
            EmailChanges emailChanges, AccountService accounts, RecentLogin recentLogin,
            ApplicationEventPublisher events) {
        this.emailChanges = emailChanges;
        this.accounts = accounts;
        this.recentLogin = recentLogin;
        this.events = events;
        this.passkeys = passkeys;
        this.sessions = sessions;
        this.factors = factors;
        this.secondStep = secondStep;
    }

    @GetMapping({ Endpoints.ACCOUNT, "/cuenta" })
    String home(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String correo,
            @RequestParam(required = false) String nombre, @RequestParam(required = false) String bloqueado,
            Model model) {
        model.addAttribute("emailSent", "enviado".equals(correo));
        model.addAttribute("nameChanged", "cambiado".equals(nombre));
        // the login throttle refused the password before it reached this controller (abuse/LoginThrottleFilter)
        model.addAttribute("throttled", bloqueado != null);
        return home(user, model);
    }

    /** The page, with the account as the database has it now (a name changed in another session shows). */
    private String home(AccountPrincipal user, Model model) {
        AccountPrincipal account = AccountPrincipal.of(accounts.findById(user.id()).orElseThrow());
        account.eraseCredentials();
        model.addAttribute("account", account);
        return "settings/home";
    }

    /** Changes the account's name (the rule of every name here, common/Names); audited. */
    @PostMapping(Endpoints.ACCOUNT + "nombre")
    String changeName(@AuthenticationPrincipal AccountPrincipal user,
            @RequestParam(name = "primer_nombre", required = false) String primerNombre, HttpServletResponse response,
            Model model) {
        try {
            accounts.rename(user.id(), primerNombre);
        }
        catch (AccountService.InvalidAccountException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            model.addAttribute("nameError", e.getMessage());
            model.addAttribute("newName", primerNombre == null || primerNombre.length() > 200 ? "" : primerNombre);
            return home(user, model);
        }
        return "redirect:" + Endpoints.ACCOUNT + "?nombre=cambiado";
    }

    /**
     * Asks to change the address: the password confirms it, a link to the new address completes it. Refused
     * with 429 and {@code Retry-After} past the budgets of {@link EmailChanges#request}.
     */
    @PostMapping(Endpoints.ACCOUNT_EMAIL)
    String changeEmail(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String correo,
            @RequestParam(required = false) String contrasena, HttpServletResponse response, Model model) {
        try {
            emailChanges.request(user.id(), correo, contrasena);
        }
        catch (AccountService.InvalidAccountException e) {
            if (e instanceof EmailChanges.TooManyRequests tooMany) {
                response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
                response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(tooMany.retryAfterSeconds()));
            }
            else {
                response.setStatus(e instanceof EmailChanges.NotSent ? HttpStatus.SERVICE_UNAVAILABLE.value()
                        : HttpStatus.BAD_REQUEST.value());
            }
            model.addAttribute("emailErrors", java.util.Map.of(e.field(), e.getMessage()));
            model.addAttribute("newEmail", correo == null || correo.length() > 254 ? "" : correo);
            return home(user, model);
        }
        return "redirect:" + Endpoints.ACCOUNT + "?correo=enviado";
    }

    @GetMapping(Endpoints.ACCOUNT_EMAIL_CONFIRM)
    String confirmEmailPage(@RequestParam(required = false) String token, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        var pending = emailChanges.pending(token);
        if (pending.isEmpty()) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            model.addAttribute("outcome", "LINK_UNUSABLE");
            return "settings/email-confirm";
        }
        model.addAttribute("token", token);
        model.addAttribute("newEmail", pending.get());
        return "settings/email-confirm";
    }

    /** A POST, not the link's GET: a mail scanner that opens links changes nothing. */
    @PostMapping(Endpoints.ACCOUNT_EMAIL_CONFIRM)
    String confirmEmail(@RequestParam(required = false) String token, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        EmailChanges.Outcome outcome = emailChanges.confirm(token);
        if (outcome != EmailChanges.Outcome.CHANGED) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        }
        model.addAttribute("outcome", outcome.name());
        return "settings/email-confirm";
    }

    /**
     * What the forms that come back to {@code /cuenta/seguridad} tell it, as query parameters, each optional:
     * {@code cerradas} (how many sessions were ended), {@code contrasena} (a wrong password), {@code desactivada}
     * (the second factor turned off), {@code llave} (what happened to a passkey: {@code nueva}, {@code eliminada},
     * {@code contrasena}), {@code bloqueado} (the login throttle refused).
     */
    record SecurityNotices(String cerradas, String contrasena, String desactivada, String llave, String bloqueado) {
    }

    /** The notices come from the query only, as {@code @RequestParam}s would: not from headers of the same names. */
    @InitBinder("securityNotices")
    void noticesFromTheQueryOnly(WebDataBinder binder) {
        if (binder instanceof ExtendedServletRequestDataBinder servlet) {
            servlet.setHeaderPredicate(header -> false);
        }
    }

    @GetMapping(Endpoints.ACCOUNT_SECURITY)
    String security(@AuthenticationPrincipal AccountPrincipal user, SecurityNotices notices,
            Authentication authentication, HttpServletRequest request, HttpServletResponse response, Model model) {
        model.addAttribute("passkeys", passkeys.of(user.correo()));
        model.addAttribute("passkeyAdded", "nueva".equals(notices.llave()));
        model.addAttribute("passkeyRemoved", "eliminada".equals(notices.llave()));
        model.addAttribute("passkeyWrongPassword", "contrasena".equals(notices.llave()));
        // adding a passkey wants a recent login, or the password again (passkey/PasskeyRegistration)
        model.addAttribute("passkeyNeedsPassword", !recentLogin.isRecent(request, authentication));
        model.addAttribute("throttled", notices.bloqueado() != null);
        model.addAttribute("totp", factors.hasTotp(user.id()));
        model.addAttribute("recoveryCodesLeft", factors.recoveryCodesLeft(user.id()));
        model.addAttribute("mayDisable", secondStep.mayDisable(user));
        model.addAttribute("wrongPassword", notices.contrasena() != null);
        model.addAttribute("disabled", notices.desactivada() != null);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        model.addAttribute("sessions", sessions.of(user.getUsername(), request.getSession().getId()));
        model.addAttribute("dates", DATES);
        if (notices.cerradas() != null) {
            model.addAttribute("ended", notices.cerradas());
        }
        return "settings/security";
    }

    /**
     * The password typed again, so that a session whose login is no longer recent may add a passkey
     * ({@link RecentLogin}); a wrong one counts as a failed login ({@link AccountService#passwordMatches}).
     */
    @PostMapping(Endpoints.ACCOUNT_SECURITY_CONFIRM)
    String confirmPassword(@AuthenticationPrincipal AccountPrincipal user,
            @RequestParam(required = false) String contrasena, HttpServletRequest request) {
        if (!accounts.passwordMatches(user.id(), contrasena)) {
            return "redirect:" + Endpoints.ACCOUNT_SECURITY + "?llave=contrasena";
        }
        recentLogin.passwordConfirmed(request);
        return "redirect:" + Endpoints.ACCOUNT_SECURITY + "?llave=confirmada";
    }

    /** Removes one of the account's passkeys; the other sessions end (it may have been lost). */
    @PostMapping(Endpoints.ACCOUNT_SECURITY + "/llaves/borrar")
    String removePasskey(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String llave,
            HttpServletRequest request) {
        if (passkeys.remove(user.correo(), llave)) {
            sessions.endOthers(user.correo(), request.getSession().getId());
            return "redirect:" + Endpoints.ACCOUNT_SECURITY + "?llave=eliminada";
        }
        return "redirect:" + Endpoints.ACCOUNT_SECURITY;
    }

    /** Ends one other session, named by its handle; audited. */
    @PostMapping(Endpoints.ACCOUNT_SECURITY + "/sesiones/cerrar")
    String endOne(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String sesion,
            HttpServletRequest request) {
        boolean ended = sesion != null && sessions.end(user.getUsername(), sesion, request.getSession().getId());
        if (ended) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.SESSIONS_ENDED,
                    "usuario #" + user.id() + " " + user.correo() + ": 1 sesión (" + sesion + ")"));
        }
        return "redirect:" + Endpoints.ACCOUNT_SECURITY + "?cerradas=" + (ended ? 1 : 0);
    }

    /** Ends every session of the account but this one; audited when there was any. */
    @PostMapping(Endpoints.ACCOUNT_SECURITY + "/sesiones/cerrar-otras")
    String endOthers(@AuthenticationPrincipal AccountPrincipal user, HttpServletRequest request) {
        int ended = sessions.endOthers(user.getUsername(), request.getSession().getId());
        if (ended > 0) {
            events.publishEvent(new AuditEvent(AuditEvent.Type.SESSIONS_ENDED,
                    "usuario #" + user.id() + " " + user.correo() + ": todas las demás (" + ended + ")"));
        }
        return "redirect:" + Endpoints.ACCOUNT_SECURITY + "?cerradas=" + ended;
    }
}
