package com.example.identity.federation;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;
import com.example.identity.mfa.RecentLogin;

/**
 * "Desvincular" on {@code /cuenta/seguridad} (decisions §19): after a recent proof (mfa/RecentLogin; the page
 * asks for the password again otherwise), and never the last way to log in ({@link LinkedIdentities#unlink}).
 * The page's list comes from {@link SecurityPageLinks}.
 */
@Controller
class LinkedIdentitiesController {

    private final LinkedIdentities links;
    private final RecentLogin recentLogin;

    LinkedIdentitiesController(LinkedIdentities links, RecentLogin recentLogin) {
        this.links = links;
        this.recentLogin = recentLogin;
    }

    @PostMapping(Endpoints.ACCOUNT_LINKS_REMOVE)
    String unlink(@AuthenticationPrincipal AccountPrincipal user, @RequestParam(required = false) Long vinculo,
            Authentication authentication, HttpServletRequest request) {
        if (!recentLogin.isRecent(request, authentication)) {
            return "redirect:" + Endpoints.ACCOUNT_SECURITY + "?vinculo=reciente";
        }
        if (vinculo == null) {
            return "redirect:" + Endpoints.ACCOUNT_SECURITY;
        }
        return switch (links.unlink(user.id(), vinculo)) {
            case REMOVED -> "redirect:" + Endpoints.ACCOUNT_SECURITY + "?vinculo=eliminado";
            case LAST_WAY_TO_LOG_IN -> "redirect:" + Endpoints.ACCOUNT_SECURITY + "?vinculo=ultimo";
            case NOT_FOUND -> "redirect:" + Endpoints.ACCOUNT_SECURITY;
        };
    }
}
