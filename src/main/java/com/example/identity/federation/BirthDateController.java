package com.example.identity.federation;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import com.example.identity.Endpoints;
import com.example.identity.minors.ParentalConsents;
import com.example.identity.minors.RefusedField;

/**
 * {@code /login/fecha-nacimiento} (decisions §27): a first login with another provider that did not give a birth
 * date (or gave a child's) asks it once, before the account exists: {@code fecha_nacimiento} and, under the consent
 * age, {@code correo_tutor}, with the sign-up's rules and refusals (minors/ParentalConsents#checkSignUp). The account
 * is then made as any first login's ({@link FirstLogins#create}); under the consent age it waits for the parent.
 * Without a login waiting in this session the page sends the browser to the login page. Every answer is
 * {@code no-store}.
 */
@Controller
class BirthDateController {

    static final String VIEW = "federation/birth-date";

    private final ParentalConsents minors;
    private final FirstLogins firstLogins;

    BirthDateController(ParentalConsents minors, FirstLogins firstLogins) {
        this.minors = minors;
        this.firstLogins = firstLogins;
    }

    @GetMapping(Endpoints.FEDERATED_BIRTH_DATE)
    String form(HttpServletRequest request, HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!(FederatedSession.peek(request, FederatedSession.PENDING_ACCOUNT) instanceof FederatedSession.PendingAccount pending)) {
            return "redirect:" + Endpoints.LOGIN;
        }
        return page(pending, model);
    }

    private String page(FederatedSession.PendingAccount pending, Model model) {
        model.addAttribute("providerName", pending.providerName());
        model.addAttribute("correo", pending.email());
        model.addAttribute("consentAge", minors.consentAge());
        return VIEW;
    }

    @PostMapping(Endpoints.FEDERATED_BIRTH_DATE)
    String create(@RequestParam(name = "fecha_nacimiento", required = false) String fechaNacimiento,
            @RequestParam(name = "correo_tutor", required = false) String correoTutor, HttpServletRequest request,
            HttpServletResponse response, Model model) {
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!(FederatedSession.peek(request, FederatedSession.PENDING_ACCOUNT) instanceof FederatedSession.PendingAccount pending)) {
            return "redirect:" + Endpoints.LOGIN;
        }
        String typedTutor = correoTutor == null || correoTutor.length() > 254 ? "" : correoTutor.strip();
        model.addAttribute("fechaNacimiento", fechaNacimiento == null || fechaNacimiento.length() > 10 ? "" : fechaNacimiento);
        model.addAttribute("correoTutor", typedTutor);
        model.addAttribute("askTutor", !typedTutor.isEmpty());
        ParentalConsents.SignUpAge age;
        try {
            age = minors.checkSignUp(fechaNacimiento, correoTutor, pending.email());
        }
        catch (RefusedField e) {
            if (ParentalConsents.FIELD.equals(e.field())) {
                model.addAttribute("askTutor", true);
            }
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("errors", Map.of(e.field(), e.getMessage()));
            return page(pending, model);
        }
        FederatedSession.take(request, FederatedSession.PENDING_ACCOUNT);
        return "redirect:" + firstLogins.create(request, response, pending, age.birth(), age.tutor());
    }
}
