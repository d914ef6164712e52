package com.example.identity.login;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.common.LocalRedirect;

/**
 * The login page. The form posts to {@code /login/}, where Spring Security's form login checks the
 * password (see {@code WebSecurityConfig}); this controller only renders it.
 */
@Controller
class LoginController {

    static final String VIEW = "login";

    @GetMapping("/login/")
    String loginPage(@RequestParam(required = false) String redirect,
            @RequestParam(required = false) String error,
            @RequestParam(required = false) String logout,
            @RequestParam(required = false) String expired,
            @RequestParam(required = false) String bloqueado,
            Model model) {
        model.addAttribute("redirect", LocalRedirect.orNull(redirect));
        model.addAttribute("error", error != null);
        model.addAttribute("loggedOut", logout != null);
        model.addAttribute("expired", expired != null);
        model.addAttribute("throttled", bloqueado != null);
        return VIEW;
    }
}
