package com.example.identity.minors;

import java.util.Optional;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.IdentityProperties;

/**
 * A parent's page (decisions §27), {@code /tutor/consentir?token=}, open to whoever holds a mailed link, no login:
 * the GET names the child's account (name, address, birth date) and the service, with the form of the request's link
 * ({@code decision} {@code allow} "Autorizar" or {@code deny} "Rechazar") or of the confirmation's ({@code withdraw});
 * only the POST decides (a mail scanner that opens links decides nothing), and says what was done. A link that no
 * longer works is 400. Every answer is {@code no-store}.
 */
@Controller
class ParentalConsentController {

    static final String VIEW = "minors/consent";

    private final ParentalConsents consents;
    private final ParentalDecisions decisions;
    private final BirthDates birthDates;
    private final String issuer;

    ParentalConsentController(ParentalConsents consents, ParentalDecisions decisions, BirthDates birthDates,
            IdentityProperties properties) {
        this.consents = consents;
        this.decisions = decisions;
        this.birthDates = birthDates;
        this.issuer = properties.issuerUrl();
    }

    @GetMapping(Endpoints.PARENTAL_CONSENT)
    String page(@RequestParam(required = false) String token, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        Optional<ParentalConsents.Link> link = consents.find(token);
        if (link.isEmpty()) {
            return answered(response, model, ParentalDecisions.Outcome.LINK_UNUSABLE, null);
        }
        ParentalConsents.Child child = link.get().child();
        model.addAttribute("token", token);
        model.addAttribute("kind", link.get().kind().name());
        model.addAttribute("childName", child.primerNombre());
        model.addAttribute("childEmail", child.correo());
        model.addAttribute("birth", child.birth().toString());
        model.addAttribute("consentAge", birthDates.consentAge());
        model.addAttribute("service", issuer);
        return VIEW;
    }

    @PostMapping(Endpoints.PARENTAL_CONSENT)
    String decide(@RequestParam(required = false) String token, @RequestParam(required = false) String decision,
            HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        String name = consents.find(token).map(link -> link.child().primerNombre()).orElse(null);
        return answered(response, model, decisions.decide(token, decision), name);
    }

    private static String answered(HttpServletResponse response, Model model, ParentalDecisions.Outcome outcome,
            String childName) {
        if (outcome == ParentalDecisions.Outcome.LINK_UNUSABLE) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
        }
        model.addAttribute("outcome", outcome.name());
        model.addAttribute("childName", childName);
        return VIEW;
    }
}
