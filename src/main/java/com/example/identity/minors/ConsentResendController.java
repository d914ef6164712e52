package com.example.identity.minors;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PostMapping;

import com.example.identity.Endpoints;
import com.example.identity.account.AccountPrincipal;

/**
 * The account page's button of a child whose parent has not answered (decisions §27): "send the mail to my parent
 * again", for a mail that was lost, or not sent because the parent's address had its hour's mails
 * ({@link ParentalConsents#resend}). A session form (login and CSRF, as every {@code /cuenta/} form); back to the
 * account page, which says what happened ({@code ?tutor=reenviado} or {@code espera}).
 */
@Controller
class ConsentResendController {

    private final ParentalConsents consents;

    ConsentResendController(ParentalConsents consents) {
        this.consents = consents;
    }

    @PostMapping(Endpoints.PARENTAL_CONSENT_RESEND)
    String resend(@AuthenticationPrincipal AccountPrincipal user) {
        return switch (consents.resend(user.id())) {
            case SENT -> "redirect:" + Endpoints.ACCOUNT + "?tutor=reenviado";
            case WAIT -> "redirect:" + Endpoints.ACCOUNT + "?tutor=espera";
            case NONE -> "redirect:" + Endpoints.ACCOUNT;
        };
    }
}
