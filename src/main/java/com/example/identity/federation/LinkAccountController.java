package com.example.identity.federation;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.abuse.LoginThrottle;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.account.AccountService;
import com.example.identity.account.UserAccount;
import com.example.identity.signin.AccountLogin;
import com.example.identity.signin.LoginSuccessHandler;

/**
 * The proof asked before linking an identity whose address belongs to an account (decisions §19): the
 * account's password at {@code /login/vincular}, then its second factor when it has one (signin/SecondStep,
 * which returns to {@code /login/vincular/terminar}); only then is the identity linked and the person logged
 * in. A passkey proves the account too (both factors in one): the page's "Vincular con una llave de acceso" is the
 * login page's passkey login (signin/PasskeyLogin) with {@code /login/vincular/terminar} as where to go next, which
 * links the identity only when the passkey's account is the one waiting. The password is checked as at the login page: a unit of the login throttle's (address, account) pair is
 * taken first, a locked pair is refused (429) before any hashing, and a wrong password counts as a failed login
 * of the account (AccountService#passwordMatches, which settles the unit).
 */
@Controller
class LinkAccountController {

    static final String VIEW = "federation/link";

    private final AccountService accounts;
    private final LinkedIdentities links;
    private final AccountLogin login;
    private final Clock clock;
    private final LoginThrottle throttle;

    LinkAccountController(AccountService accounts, LinkedIdentities links, AccountLogin login, Clock clock,
            LoginThrottle throttle) {
        this.throttle = throttle;
        this.accounts = accounts;
        this.links = links;
        this.login = login;
        this.clock = clock;
    }

    @GetMapping(Endpoints.FEDERATED_LINK)
    String page(HttpServletRequest request, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!(FederatedSession.peek(request, FederatedSession.PENDING_LINK) instanceof FederatedSession.PendingLink pending)) {
            return "redirect:" + Endpoints.LOGIN;
        }
        model.addAttribute("pending", pending);
        return VIEW;
    }

    @PostMapping(Endpoints.FEDERATED_LINK)
    String prove(@RequestParam(required = false) String password, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!(FederatedSession.peek(request, FederatedSession.PENDING_LINK) instanceof FederatedSession.PendingLink pending)) {
            return "redirect:" + Endpoints.LOGIN;
        }
        UserAccount account = accounts.findById(pending.userId()).filter(UserAccount::isEnabled).orElse(null);
        if (account == null || !account.isPasswordSet()) {
            return refused(pending, response, model, HttpStatus.BAD_REQUEST);
        }
        // the password's unit is taken before it is checked; a wrong one settles it (account/PasswordCheckFailed)
        try (LoginThrottle.Attempt attempt = throttle.tryAcquire(request, account.getCorreo())) {
            if (attempt == null) {
                return refused(pending, response, model, HttpStatus.TOO_MANY_REQUESTS);
            }
            if (!accounts.passwordMatches(account.getId(), password)) {
                return refused(pending, response, model, HttpStatus.BAD_REQUEST);
            }
        }
        // the password proved the account: its second factor next, when it has one, and back to finish here
        request.changeSessionId();
        AccountPrincipal user = AccountPrincipal.of(account);
        user.eraseCredentials();
        List<GrantedAuthority> authorities = new ArrayList<>(user.getAuthorities());
        authorities.add(FactorGrantedAuthority.withAuthority(FactorGrantedAuthority.PASSWORD_AUTHORITY)
                .issuedAt(clock.instant()).build());
        String next = login.login(request, response, account, FactorGrantedAuthority.PASSWORD_AUTHORITY,
                Endpoints.FEDERATED_LINK_DONE);
        if (!next.equals(Endpoints.FEDERATED_LINK_DONE)) {
            return "redirect:" + next;
        }
        return finish(request, UsernamePasswordAuthenticationToken.authenticated(user, null, authorities));
    }

    /** The form again: 400 for a wrong password, 429 while the login throttle refuses the pair. */
    private static String refused(FederatedSession.PendingLink pending, HttpServletResponse response, Model model,
            HttpStatus status) {
        response.setStatus(status.value());
        model.addAttribute("pending", pending);
        model.addAttribute("error", status == HttpStatus.BAD_REQUEST);
        model.addAttribute("throttled", status == HttpStatus.TOO_MANY_REQUESTS);
        return VIEW;
    }

    /** The account proved (and its second step done): the identity is linked, the authorization request goes on. */
    @GetMapping(Endpoints.FEDERATED_LINK_DONE)
    String done(Authentication authentication, HttpServletRequest request) {
        return finish(request, authentication);
    }

    private String finish(HttpServletRequest request, Authentication authentication) {
        Object taken = FederatedSession.take(request, FederatedSession.PENDING_LINK);
        if (!(taken instanceof FederatedSession.PendingLink pending)
                || !(authentication.getPrincipal() instanceof AccountPrincipal user) || user.id() != pending.userId()) {
            return "redirect:" + Endpoints.ACCOUNT_SECURITY;
        }
        links.link(pending.userId(), pending.provider(), pending.subject());
        return "redirect:" + LoginSuccessHandler.target(authentication, pending.redirect());
    }
}
