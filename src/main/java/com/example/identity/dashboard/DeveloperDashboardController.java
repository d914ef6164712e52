package com.example.identity.dashboard;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

import com.example.identity.account.AccountPrincipal;

/** The developer dashboard, for {@code developer_api} and {@code admin} users (access rule in the web chain). */
@Controller
class DeveloperDashboardController {

    static final String VIEW = "dashboard/developer";

    @GetMapping("/dashboard/developer.php")
    String dashboard(@AuthenticationPrincipal AccountPrincipal user, Model model) {
        model.addAttribute("user", user);
        return VIEW;
    }
}
