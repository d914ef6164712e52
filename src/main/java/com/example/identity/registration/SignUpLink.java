package com.example.identity.registration;

import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * Whether the login page (signin/) shows "Crear cuenta" (decisions §18: not when
 * {@code identity.registration.enabled} is false). An advice on signin/'s pages, so that signin/ does not
 * import this package (which imports signin/ to log the new account in).
 */
@ControllerAdvice(basePackages = "com.example.identity.signin")
class SignUpLink {

    static final String ATTRIBUTE = "registrationEnabled";

    private final RegistrationSettings settings;

    SignUpLink(RegistrationSettings settings) {
        this.settings = settings;
    }

    @ModelAttribute(ATTRIBUTE)
    boolean registrationEnabled() {
        return settings.enabled();
    }
}
