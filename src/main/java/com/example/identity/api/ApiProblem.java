package com.example.identity.api;

import java.io.Serial;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * A refusal by a controller of {@code /api/}: the status and the Spanish {@code error} of the
 * {@code {"ok":false,"error":"..."}} answer, written by {@link ApiErrors}. Control flow, not a failure: it
 * carries no stack trace.
 */
final class ApiProblem extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final HttpStatus status;
    private final @Nullable String wwwAuthenticate;

    private ApiProblem(HttpStatus status, String error, @Nullable String wwwAuthenticate) {
        super(error, null, false, false);
        this.status = status;
        this.wwwAuthenticate = wwwAuthenticate;
    }

    static ApiProblem badRequest(String error) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, error, null);
    }

    /** 401 with {@code WWW-Authenticate: <challenge>} (RFC 6750 §3), or without it when null. */
    static ApiProblem unauthorized(String error, @Nullable String challenge) {
        return new ApiProblem(HttpStatus.UNAUTHORIZED, error, challenge);
    }

    static ApiProblem forbidden(String error) {
        return new ApiProblem(HttpStatus.FORBIDDEN, error, null);
    }

    static ApiProblem conflict(String error) {
        return new ApiProblem(HttpStatus.CONFLICT, error, null);
    }

    static ApiProblem notFound(String error) {
        return new ApiProblem(HttpStatus.NOT_FOUND, error, null);
    }

    HttpStatus status() {
        return status;
    }

    String error() {
        return getMessage();
    }

    @Nullable String wwwAuthenticate() {
        return wwwAuthenticate;
    }
}
