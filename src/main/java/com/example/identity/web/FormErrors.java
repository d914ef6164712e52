package com.example.identity.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.springframework.validation.BindingResult;

/**
 * A page form's refusals as its view shows them: the first message of each field, keyed by the form's field name
 * ({@code errors['repetida']} in the templates), in the order the checks found them. Forms are records bound and
 * validated as spring-petclinic's are ({@code @Valid} and a {@link BindingResult}); the page is shown again with
 * these messages.
 */
public final class FormErrors {

    private FormErrors() {
    }

    /** The messages by field, where the form's fields are named as its record's components. */
    public static Map<String, String> of(BindingResult checked) {
        return of(checked, UnaryOperator.identity());
    }

    /** The messages by field; {@code fieldOf} names the form's field a record component is bound from. */
    public static Map<String, String> of(BindingResult checked, UnaryOperator<String> fieldOf) {
        Map<String, String> errors = new LinkedHashMap<>();
        checked.getFieldErrors().forEach(e -> errors.putIfAbsent(fieldOf.apply(e.getField()), e.getDefaultMessage()));
        return errors;
    }
}
