package com.example.identity.settings;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountDeletion;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.Caller;
import com.example.identity.account.LoginFactors;
import com.example.identity.account.PasswordCheckFailed;
import com.example.identity.account.UserAccount;
import com.example.identity.mfa.MfaSettings;
import com.example.identity.mfa.SecondFactors;
import com.example.identity.passkey.Passkeys;

/**
 * {@code /cuenta/eliminar} (decisions §20): the person deletes their account. The form asks for the password
 * ({@code contrasena}), the second factor's code ({@code codigo}) where the account has one, and the address typed
 * again ({@code confirmacion}); an account with passkeys must also have logged in with one of them within
 * {@code identity.mfa.recent-login}. An account without a password of its own (made by another provider's login)
 * is asked for no password (issue 39): as {@code /login/vincular} proves an account, it proves itself with a login
 * within {@code identity.mfa.recent-login} with one of its passkeys (when it has any) or else with one of its
 * linked providers ("Entrar de nuevo con …", federation/, which comes back here). A wrong password or code counts
 * as a failed login of the login throttle (abuse/LoginThrottleFilter refuses the form as it refuses the login
 * page). Then account/AccountDeletion, the session ends and the page says so.
 */
@Controller
class AccountDeletionController {

    static final String VIEW = "settings/delete";
    static final String NOT_RECENT = "Tu cuenta no tiene contraseña: vuelve a entrar con tu proveedor (o tu llave de "
            + "acceso) y elimina la cuenta en los minutos siguientes";
    static final String OTHER_IDENTITY = "Esa cuenta del otro proveedor no es la vinculada a tu cuenta";

    private final AccountService accounts;
    private final AccountDeletion deletion;
    private final SecondFactors factors;
    private final Passkeys passkeys;
    private final MfaSettings mfa;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    AccountDeletionController(AccountService accounts, AccountDeletion deletion, SecondFactors factors,
            Passkeys passkeys, MfaSettings mfa, ApplicationEventPublisher events, Clock clock) {
        this.accounts = accounts;
        this.deletion = deletion;
        this.factors = factors;
        this.passkeys = passkeys;
        this.mfa = mfa;
        this.events = events;
        this.clock = clock;
    }

    @GetMapping(Endpoints.ACCOUNT_DELETE)
    String form(@AuthenticationPrincipal AccountPrincipal user, Authentication authentication,
            @RequestParam(required = false) String bloqueado, @RequestParam(required = false) String reautenticacion,
            HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        Map<String, String> errors = new LinkedHashMap<>();
        if (bloqueado != null) {
            errors.put("contrasena", PasswordChangeController.THROTTLED);
        }
        if (reautenticacion != null) {
            errors.put("reciente", OTHER_IDENTITY);
        }
        return page(user, authentication, errors, model);
    }

    @PostMapping(Endpoints.ACCOUNT_DELETE)
    String delete(@AuthenticationPrincipal AccountPrincipal user, Authentication authentication,
            @RequestParam(required = false) String contrasena, @RequestParam(required = false) String codigo,
            @RequestParam(required = false) String confirmacion, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        Map<String, String> errors = new LinkedHashMap<>();
        UserAccount account = accounts.findById(user.id()).orElse(null);
        String correo = account == null ? user.correo() : account.getCorreo();
        boolean ownPassword = account == null || account.isPasswordSet();
        if (confirmacion == null || !UserAccount.normalizeEmail(confirmacion).equals(correo)) {
            errors.put("confirmacion", "Escribe la dirección de correo de tu cuenta tal como es");
        }
        else if (ownPassword && !accounts.passwordMatches(user.id(), contrasena)) {
            errors.put("contrasena", "La contraseña no es correcta");
        }
        else if (!ownPassword && !passkeys.hasAny(correo) && !recent(authentication, LoginFactors.FEDERATED_AUTHORITY)) {
            // no password to type: a login with one of its providers just now proves it (passkeys: below)
            errors.put("reciente", NOT_RECENT);
        }
        else if (factors.hasTotp(user.id()) && factors.verify(user.id(), codigo) == SecondFactors.Proof.NONE) {
            events.publishEvent(new PasswordCheckFailed(correo)); // a wrong code counts as a failed login too
            errors.put("codigo", "Código incorrecto");
        }
        else if (passkeys.hasAny(correo) && !recent(authentication, FactorGrantedAuthority.WEBAUTHN_AUTHORITY)) {
            errors.put("llave", "Vuelve a iniciar sesión con tu llave de acceso y elimina la cuenta en los "
                    + "minutos siguientes");
        }
        if (!errors.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return page(user, authentication, errors, model);
        }
        AccountDeletion.Outcome outcome = deletion.delete(user.id(), Caller.of(user));
        if (outcome != AccountDeletion.Outcome.DELETED) {
            response.setStatus(HttpStatus.CONFLICT.value());
            errors.put("cuenta", "Eres el último administrador: nombra otro antes de eliminar tu cuenta");
            return page(user, authentication, errors, model);
        }
        SecurityContextHolder.clearContext();
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
        return "settings/deleted";
    }

    private String page(AccountPrincipal user, Authentication authentication, Map<String, String> errors, Model model) {
        model.addAttribute("errors", errors);
        model.addAttribute("hasTotp", factors.hasTotp(user.id()));
        boolean hasPasskeys = passkeys.hasAny(user.correo());
        model.addAttribute("hasPasskeys", hasPasskeys);
        model.addAttribute("passkeyRecent", hasPasskeys && recent(authentication, FactorGrantedAuthority.WEBAUTHN_AUTHORITY));
        // without a password of its own: no password field, the proof of a recent login instead (the page's
        // "Entrar de nuevo con …" buttons come from federation/'s advice on this package: linkedIdentities)
        boolean ownPassword = accounts.findById(user.id()).map(UserAccount::isPasswordSet).orElse(true);
        model.addAttribute("ownPassword", ownPassword);
        model.addAttribute("providerRecent", !ownPassword && recent(authentication, LoginFactors.FEDERATED_AUTHORITY));
        return VIEW;
    }

    /** Whether this session logged in with {@code factor} within {@code identity.mfa.recent-login}. */
    private boolean recent(Authentication authentication, String factorName) {
        Instant oldest = clock.instant().minus(mfa.recentLogin());
        for (GrantedAuthority authority : authentication.getAuthorities()) {
            if (authority instanceof FactorGrantedAuthority factor && factorName.equals(factor.getAuthority())
                    && factor.getIssuedAt() != null && !factor.getIssuedAt().isBefore(oldest)) {
                return true;
            }
        }
        return false;
    }
}
