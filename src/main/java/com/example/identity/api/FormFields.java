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

    /**
     * The {@code id} field of the management routes: present, sent once, a number.
     *
     * @throws ApiProblem 400 {@code Falta el parámetro id} or {@code id inválido}
     */
    static long id(HttpServletRequest request) {
        String[] ids = request.getParameterValues("id");
        if (ids == null || ids.length == 0 || ids[0].isBlank()) {
            throw ApiProblem.badRequest("Falta el parámetro id");
        }
        if (ids.length > 1 || ids[0].length() > 19) {
            throw ApiProblem.badRequest("id inválido");
        }
        try {
            return Long.parseLong(ids[0]);
        }
        catch (NumberFormatException e) {
            throw ApiProblem.badRequest("id inválido");
        }
    }

    /**
     * A yes-or-no field: {@code true} or {@code false}, absent or empty meaning false.
     *
     * @throws ApiProblem 400 {@code <name> inválido: true o false}
     */
    static boolean flag(HttpServletRequest request, String name) {
        return switch (single(request, name)) {
            case "", "false" -> false;
            case "true" -> true;
            default -> throw ApiProblem.badRequest(name + " inválido: true o false");
        };
    }
}
