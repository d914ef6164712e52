package com.example.identity.site;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

import com.example.identity.account.AccountPrincipal;

/** {@code /}: who is logged in, and the way to the dashboard for developers and admins. */
@Controller
class HomeController {

    @GetMapping("/")
    String home(@AuthenticationPrincipal AccountPrincipal user, Model model) {
        model.addAttribute("user", user);
        return "site/home";
    }
}
