package com.example.identity.web;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

import com.example.identity.account.AccountPrincipal;

/** Puts the logged-in user (or {@code null}) in every page's model as {@code currentUser}, for the layout. */
@ControllerAdvice(annotations = org.springframework.stereotype.Controller.class)
class CurrentUserAdvice {

    @ModelAttribute("currentUser")
    AccountPrincipal currentUser(@AuthenticationPrincipal AccountPrincipal user) {
        return user;
    }
}
