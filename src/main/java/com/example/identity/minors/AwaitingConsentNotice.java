package com.example.identity.minors;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.account.AccountPrincipal;

/**
 * The person's own pages (settings/, {@code /cuenta/}) of a child whose parent has not answered yet (decisions §27):
 * the parent's address the request went to, for the account page's notice ({@code awaitingParentalConsent}); null for
 * everyone else, from minors/'s cache. An advice, so settings/ imports nothing of it.
 */
@ControllerAdvice(basePackages = "com.example.identity.settings")
class AwaitingConsentNotice {

    // looked up when asked: a web slice test of settings/'s controllers has no minors/ (then no notice)
    private final ObjectProvider<Minors> minors;
    private final ObjectProvider<ParentalConsents> consents;

    AwaitingConsentNotice(ObjectProvider<Minors> minors, ObjectProvider<ParentalConsents> consents) {
        this.minors = minors;
        this.consents = consents;
    }

    @ModelAttribute("awaitingParentalConsent")
    @Nullable String tutor(@AuthenticationPrincipal @Nullable AccountPrincipal user) {
        Minors status = minors.getIfAvailable();
        ParentalConsents asked = consents.getIfAvailable();
        if (user == null || status == null || asked == null || !status.awaitingConsent(user.id())) {
            return null;
        }
        return asked.of(user.id()).map(ParentalConsents.Consent::correoTutor).orElse(null);
    }

    /** What the resend button did ({@link ConsentResendController}): {@code reenviado}, {@code espera}, else null. */
    @ModelAttribute("parentalMailResend")
    @Nullable String resend(@RequestParam(name = "tutor", required = false) @Nullable String tutor) {
        return "reenviado".equals(tutor) || "espera".equals(tutor) ? tutor : null;
    }
}
