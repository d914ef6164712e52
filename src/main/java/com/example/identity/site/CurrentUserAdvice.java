package com.example.identity.site;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

import com.example.identity.account.AccountPrincipal;

/**
 * Puts the logged-in user (or {@code null}) in every page's model as {@code currentUser}, for the layout.
 * Only for the packages that hold page controllers (site: the home page; web: the error pages; signin,
 * settings, dashboard, consent, device, recovery, openapi; oauth's one page, the logout confirmation, sets it itself):
 * a {@code @ModelAttribute} advice runs on every request of the controllers it applies to, and the JSON
 * endpoints (token, client), {@code /api/userinfo.php} above all, have no model to fill. ArchitectureTest
 * fails when a package with a page controller is missing here.
 */
@ControllerAdvice(basePackages = { "com.example.identity.site", "com.example.identity.web",
        "com.example.identity.signin", "com.example.identity.settings", "com.example.identity.dashboard",
        "com.example.identity.consent", "com.example.identity.deviceflow", "com.example.identity.recovery",
        "com.example.identity.registration", "com.example.identity.federation",
        "com.example.identity.openapi", "com.example.identity.minors" })
class CurrentUserAdvice {

    @ModelAttribute("currentUser")
    AccountPrincipal currentUser(@AuthenticationPrincipal AccountPrincipal user) {
        return user;
    }
}
