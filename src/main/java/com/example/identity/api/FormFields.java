package com.example.identity.api;

import jakarta.servlet.http.HttpServletRequest;

/** The form fields of the {@code /api/} routes: each is sent at most once. */
final class FormFields {

    private FormFields() {
    }

    /**
     * The one value of {@code name}, "" when it is absent.
     *
     * @throws ApiProblem 400 {@code Parámetro repetido: <name>} when it was sent more than once
     */
    static String single(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        if (values == null || values.length == 0) {
            return "";
        }
        if (values.length > 1) {
            throw ApiProblem.badRequest("Parámetro repetido: " + name);
        }
        return values[0];
    }
}
