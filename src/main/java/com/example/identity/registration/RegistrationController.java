package com.example.identity.registration;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

import com.example.identity.Endpoints;
import com.example.identity.abuse.ClientAddress;
import com.example.identity.abuse.RateLimits;
import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;
import com.example.identity.common.LocalRedirect;
import com.example.identity.guestaccount.GuestConversion;
import com.example.identity.guestaccount.Guests;
import com.example.identity.minors.BirthDates;
import com.example.identity.minors.ParentalConsents;
import com.example.identity.minors.RefusedField;
import com.example.identity.signin.ReturnToApplication;

/**
 * The sign-up pages (decisions §18), open to anyone while {@code identity.registration.enabled}: the form
 * at {@code /registro} (fields {@code correo}, {@code primer_nombre}, {@code password}, {@code fecha_nacimiento} and,
 * under the consent age, {@code correo_tutor} (decisions §27, asked once the date says so), and {@code redirect},
 * the authorization request that led here) gives the same answer for a new and a taken address; the mailed
 * link {@code /registro/confirmar?token=} shows a button, and its POST (not the link's GET: a mail scanner
 * that opens links creates nothing) creates the account, logs it in and continues the authorization request.
 * Requests per client address share recovery's budget mechanism ({@code identity.rate-limit.recovery-requests}
 * per 15 minutes, a count of their own, spent on every instance); mails per target address are bounded by
 * {@link Registrations}. Every page is {@code no-store}. With {@code invitado=<code>} the form keeps a guest
 * player's progress (decisions §24): its link converts that guest, the same account (guestaccount/, {@link GuestSignUps}).
 */
@Controller
class RegistrationController {

    static final String VIEW = "registration/sign-up";
    static final String CONFIRM_VIEW = "registration/confirm";
    /** The confirmation form's {@code accion} that refuses the sign-up, and the page's outcome then. */
    static final String REFUSE = "rechazar";
    static final String REFUSED = "REFUSED";
    /** The home page's notice after a guest became a full account (decisions §24). */
    static final String GUEST_KEPT = "invitado=guardado";
    /** The client address's budget key: recovery's budget, counted apart. */
    static final String BUDGET_PREFIX = "registro:";

    private final Registrations registrations;
    private final RegistrationSettings settings;
    private final RateLimits limits;
    private final RegisteredClientRepository clients;
    private final SignUpLogin login;
    private final Guests guests;
    private final Clock clock;
    private final ParentalConsents minors;

    RegistrationController(Registrations registrations, RegistrationSettings settings, RateLimits limits,
            RegisteredClientRepository clients, SignUpLogin login, Guests guests, Clock clock, ParentalConsents minors) {
        this.minors = minors;
        this.guests = guests;
        this.clock = clock;
        this.registrations = registrations;
        this.settings = settings;
        this.limits = limits;
        this.clients = clients;
        this.login = login;
    }

    /** The consent age the form's birth date field mentions (decisions §27). */
    @ModelAttribute("consentAge")
    int consentAge() {
        return minors.consentAge();
    }

    private void enabledOr404(HttpServletResponse response) {
        if (!settings.enabled()) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
    }

    /** The authorization request that led here, when it is one this server would continue; else null. */
    private @Nullable String checked(@Nullable String redirect) {
        ReturnToApplication back = ReturnToApplication.of(LocalRedirect.orNull(redirect), clients);
        return back == null ? null : back.url();
    }

    /**
     * The form. With {@code invitado=<code>} (decisions §24, the address of {@code /api/invitados/convertir.php}) it
     * keeps a guest's progress: the code is spent and this session converts that guest (guestaccount/GuestConversion),
     * by this form or by the "Entrar con …" buttons it then shows; a code that no longer works says so (400). With
     * {@code ocupado} ({@code correo} or {@code identidad}), a conversion refused because that address or that
     * provider's identity is someone's: the page says so and offers to log in to that account.
     */
    @GetMapping(Endpoints.REGISTRATION)
    String form(@RequestParam(required = false) String redirect, @RequestParam(required = false) String invitado,
            @RequestParam(required = false) String ocupado, @RequestParam(required = false) String proveedor,
            HttpServletRequest request, HttpServletResponse response, Model model) {
        enabledOr404(response);
        if (invitado != null) {
            var guest = guests.redeem(invitado);
            if (guest.isEmpty()) {
                response.setStatus(HttpStatus.BAD_REQUEST.value());
                model.addAttribute("guestLinkUnusable", true);
                return VIEW;
            }
            var suspended = login.refusalOf(request, response, guest.get().getId());
            if (suspended.isPresent()) {
                return "redirect:" + suspended.get(); // a suspended guest keeps no progress (decisions §26)
            }
            GuestConversion.begin(request, guest.get().getId(), clock.instant());
        }
        if ("correo".equals(ocupado) || "identidad".equals(ocupado)) {
            model.addAttribute("guestTaken", ocupado);
            // the provider whose identity is someone's: its button logs in to that account
            model.addAttribute("takenProvider", proveedor != null && proveedor.matches("[A-Za-z0-9_-]{1,64}") ? proveedor : null);
            return VIEW;
        }
        IdentitySignUp.Identity identity = IdentitySignUp.of(request);
        model.addAttribute("identity", identity);
        model.addAttribute("redirect", identity != null ? checked(identity.redirect()) : checked(redirect));
        model.addAttribute("primerNombre", identity == null ? null : identity.name());
        // an address the provider gave without verifying it (D44): typed already, proved by the mailed link
        model.addAttribute("correo", identity == null ? null : identity.unverifiedEmail());
        guestBeingConverted(request, model);
        return VIEW;
    }

    /** The guest this session converts, if any: its name for the page (decisions §24). */
    private @Nullable Long guestBeingConverted(HttpServletRequest request, Model model) {
        Long guestId = GuestConversion.of(request, clock.instant()).orElse(null);
        Optional<UserAccount> guest = guestId == null ? Optional.empty() : guests.guest(guestId);
        if (guest.isEmpty()) {
            return null;
        }
        model.addAttribute("guestName", guest.get().getPrimerNombre());
        return guestId;
    }

    @PostMapping(Endpoints.REGISTRATION)
    String signUp(@ModelAttribute SignUpFields typed, HttpServletRequest request, HttpServletResponse response,
            Model model) {
        enabledOr404(response);
        // another provider's login that gave no address (D38): the same form without a password
        IdentitySignUp.Identity identity = IdentitySignUp.of(request);
        model.addAttribute("identity", identity);
        // a guest's sign-up (decisions §24): its link converts the guest this session was opened for
        Long guestId = guestBeingConverted(request, model);
        String continueTo = checked(identity != null ? identity.redirect() : typed.redirect());
        model.addAttribute("redirect", continueTo);
        model.addAttribute("correo", SignUpFields.shown(typed.correo(), 254));
        model.addAttribute("primerNombre", typed.primerNombre() == null || typed.primerNombre().length() > 100
                ? "" : typed.primerNombre());
        model.addAttribute("fechaNacimiento", SignUpFields.shown(typed.fechaNacimiento(), 10));
        model.addAttribute("correoTutor", SignUpFields.shown(typed.correoTutor(), 254));
        // the parent's address is asked once the birth date says so, and kept on the form once typed
        model.addAttribute("askTutor", !SignUpFields.shown(typed.correoTutor(), 254).isEmpty());
        SignUpForm form;
        try {
            form = SignUpForm.check(typed.correo(), typed.primerNombre(), typed.password(), identity);
            ParentalConsents.SignUpAge age = minors.checkSignUp(typed.fechaNacimiento(), typed.correoTutor(), form.correo());
            form = form.born(age.birth(), age.tutor());
        }
        catch (SignUpForm.InvalidField e) {
            return refused(response, model, e.field, e.getMessage());
        }
        catch (AccountService.InvalidAccountException e) {
            return refused(response, model, e.field(), e.getMessage());
        }
        catch (RefusedField e) {
            if (ParentalConsents.FIELD.equals(e.field())) {
                model.addAttribute("askTutor", true);
            }
            return refused(response, model, e.field(), e.getMessage());
        }
        String address = BUDGET_PREFIX + ClientAddress.key(request);
        long wait = limits.blockedFor(RateLimits.Budget.RECOVERY_REQUESTS, address);
        if (wait > 0) {
            response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(wait));
            model.addAttribute("error", "Demasiadas solicitudes desde tu conexión. Vuelve a intentarlo dentro de "
                    + Math.max(1, (wait + 59) / 60) + " minutos.");
            return VIEW;
        }
        limits.recordFailure(RateLimits.Budget.RECOVERY_REQUESTS, address);
        registrations.request(form, continueTo, guestId);
        IdentitySignUp.forget(request);
        model.addAttribute("sent", form.correo());
        return VIEW;
    }

    private static String refused(HttpServletResponse response, Model model, String field, String message) {
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        model.addAttribute("errors", Map.of(field, message));
        return VIEW;
    }

    @GetMapping(Endpoints.REGISTRATION_CONFIRM)
    String confirmPage(@RequestParam(required = false) String token, HttpServletResponse response, Model model) {
        enabledOr404(response);
        Registrations.Confirmation found = registrations.pending(token);
        if (found.outcome() == Registrations.Outcome.GUEST_ADDRESS_TAKEN) {
            // a guest's sign-up whose address is someone's says so here, to the mailbox only (decisions §24)
            model.addAttribute("outcome", found.outcome().name());
            return CONFIRM_VIEW;
        }
        if (found.outcome() != Registrations.Outcome.PENDING) {
            return answered(response, model, found.outcome());
        }
        return confirmForm(token, found.pending(), response, model);
    }

    /**
     * The link's page: whose sign-up it is (the name typed and the address, and the identity it will link), the
     * button that creates the account, a password of the mailbox owner's own to use instead of the one typed at
     * the sign-up, and the button that refuses it (issue 39).
     */
    private String confirmForm(String token, Registrations.Pending pending, HttpServletResponse response, Model model) {
        model.addAttribute("token", token);
        model.addAttribute("correo", pending.correo());
        model.addAttribute("primerNombre", pending.primerNombre());
        model.addAttribute("ownPassword", pending.typistChosePassword());
        // a sign-up that another provider's login started says which identity the account will be linked to
        model.addAttribute("linkProvider", pending.provider());
        model.addAttribute("linkSubject", pending.subject());
        // a guest's sign-up says which guest becomes this account (decisions §24)
        model.addAttribute("guestName", pending.guestName());
        // the button's answer leads, through the authorization endpoint, to the application's address
        ReturnToApplication.allowFormsToReach(response, pending.continueTo(), clients);
        return CONFIRM_VIEW;
    }

    private static String answered(HttpServletResponse response, Model model, Registrations.Outcome outcome) {
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        model.addAttribute("outcome", outcome.name());
        return CONFIRM_VIEW;
    }

    /**
     * Uses the link: the account, logged in, then the authorization request that led to the sign-up; with
     * {@code password}, the mailbox owner's own password instead of the one typed at the sign-up; with
     * {@code accion=rechazar}, nothing is created and the sign-up is gone.
     */
    @PostMapping(Endpoints.REGISTRATION_CONFIRM)
    String confirm(@RequestParam(required = false) String token, @RequestParam(required = false) String password,
            @RequestParam(required = false) String accion, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        enabledOr404(response);
        if (REFUSE.equals(accion)) {
            if (!registrations.refuse(token)) {
                return answered(response, model, Registrations.Outcome.LINK_UNUSABLE);
            }
            model.addAttribute("outcome", REFUSED);
            return CONFIRM_VIEW;
        }
        String chosenHash = null;
        if (password != null && !password.isEmpty()) {
            Registrations.Confirmation found = registrations.pending(token);
            if (found.outcome() != Registrations.Outcome.PENDING || !found.pending().typistChosePassword()) {
                return answered(response, model, found.outcome() == Registrations.Outcome.PENDING
                        ? Registrations.Outcome.LINK_UNUSABLE : found.outcome());
            }
            try {
                AccountService.checkChosenPassword(password);
            }
            catch (AccountService.InvalidAccountException e) {
                response.setStatus(HttpStatus.BAD_REQUEST.value());
                model.addAttribute("errors", Map.of(e.field(), e.getMessage()));
                return confirmForm(token, found.pending(), response, model);
            }
            chosenHash = registrations.hash(password);
        }
        Registrations.Confirmation done;
        try {
            done = registrations.confirm(token, chosenHash);
        }
        catch (AccountService.EmailAlreadyUsedException raced) {
            // another link of the same address made the account at the same moment (issue 39)
            return answered(response, model, Registrations.Outcome.ADDRESS_TAKEN);
        }
        if (done.outcome() == Registrations.Outcome.CONVERTED) {
            // the guest is a full account now (decisions §24): logged in, told that its progress is kept
            GuestConversion.forget(request);
            String next = login.login(request, response, done.account(), null);
            return "redirect:" + (Endpoints.HOME.equals(next) ? Endpoints.HOME + "?" + GUEST_KEPT : next);
        }
        if (done.outcome() != Registrations.Outcome.CREATED) {
            return answered(response, model, done.outcome());
        }
        // checked again: the application may have been revoked since the sign-up
        String next = login.login(request, response, done.account(), checked(done.continueTo()));
        return "redirect:" + next;
    }
}
