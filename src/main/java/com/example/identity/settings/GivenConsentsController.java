package com.example.identity.settings;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.consent.ConsentController;
import com.example.identity.consent.Consents;

/**
 * {@code /cuenta/aplicaciones} (decisions §12.6, §17): the applications a user has given consent to, with
 * what each may see and since when, and a button to withdraw each (CSRF-protected): the consent goes and so
 * does every token the application holds for the user ({@link Consents#withdraw}).
 */
@Controller
class GivenConsentsController {

    static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final Consents consents;

    GivenConsentsController(Consents consents) {
        this.consents = consents;
    }

    @GetMapping(Endpoints.ACCOUNT_APPLICATIONS)
    String list(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) String retirada,
            Model model) {
        model.addAttribute("consents", consents.of(user.id()));
        model.addAttribute("scopeNames", ConsentController.SCOPES);
        model.addAttribute("dates", DATE);
        model.addAttribute("withdrawn", retirada != null);
        return "settings/applications";
    }

    @PostMapping(Endpoints.ACCOUNT_APPLICATIONS + "/retirar")
    String withdraw(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(name = "client_id", required = false) String clientId) {
        // "retirada" only when a consent went: an unknown application, or one withdrawn already, changes nothing
        boolean withdrawn = clientId != null && consents.withdraw(user.id(), clientId);
        return "redirect:" + Endpoints.ACCOUNT_APPLICATIONS + (withdrawn ? "?retirada" : "");
    }
}
