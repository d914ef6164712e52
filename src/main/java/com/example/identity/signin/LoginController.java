package com.example.identity.signin;

import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

import com.example.identity.Endpoints;
import com.example.identity.common.LocalRedirect;

/**
 * The login page. The form posts to {@code /login/}, where Spring Security's form login checks the
 * password (see {@code WebSecurityConfig}); this controller only renders it.
 */
@Controller
class LoginController {

    static final String VIEW = "signin/login";

    private final RegisteredClientRepository clients;

    LoginController(RegisteredClientRepository clients) {
        this.clients = clients;
    }

    @GetMapping(Endpoints.LOGIN)
    String loginPage(@RequestParam(required = false) String redirect,
            @RequestParam(required = false) String error,
            @RequestParam(required = false) String logout,
            @RequestParam(required = false) String expired,
            @RequestParam(required = false) String bloqueado,
            HttpServletRequest request, HttpServletResponse response, Model model) {
        // the form's answer leads, through the authorization endpoint, to the application's address
        ReturnToApplication.allowFormsToReach(response, LocalRedirect.orNull(redirect), clients);
        model.addAttribute("redirect", LocalRedirect.orNull(redirect));
        model.addAttribute("loginHint", loginHint(LocalRedirect.orNull(redirect)));
        model.addAttribute("error", error != null);
        model.addAttribute("loggedOut", logout != null);
        model.addAttribute("expired", expired != null);
        model.addAttribute("throttled", bloqueado != null);
        // a refused login of a sanctioned account (decisions §26): why and until when, shown once
        model.addAttribute("suspension", request.getParameter(Suspensions.FLAG) == null ? null : Suspensions.take(request));
        return VIEW;
    }

    /** Longest e-mail address the form takes (its {@code maxlength}). */
    static final int MAX_EMAIL = 254;

    /**
     * The {@code login_hint} of the authorization request the login page leads back to (OIDC Core
     * §3.1.2.1): only a value to pre-fill the e-mail field with (Thymeleaf escapes it), never trusted for
     * anything else; null when there is none, it is malformed or longer than an e-mail address.
     */
    static @Nullable String loginHint(@Nullable String redirect) {
        if (redirect == null || !redirect.startsWith(Endpoints.AUTHORIZE + "?")) {
            return null;
        }
        try {
            String hint = UriComponentsBuilder.fromUriString(redirect).build().getQueryParams().getFirst("login_hint");
            if (hint == null) {
                return null;
            }
            String decoded = UriUtils.decode(hint.replace("+", " "), StandardCharsets.UTF_8).strip();
            return decoded.isEmpty() || decoded.length() > MAX_EMAIL ? null : decoded;
        }
        catch (IllegalArgumentException e) {
            return null;
        }
    }

}
