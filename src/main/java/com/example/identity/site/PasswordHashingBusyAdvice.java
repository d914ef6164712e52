package com.example.identity.site;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

import com.example.identity.account.PasswordHashingBusy;

/**
 * A page or endpoint that hashes a password (password change, admin-made accounts and resets) when the
 * hashing queue is full: 503 with {@code Retry-After}, through the error dispatch, so the answer is a
 * Spanish page or, under {@code /api/} and the JSON OAuth endpoints, JSON in the endpoint's shape
 * ({@code web/ErrorPages}). The login form is answered the same way by its failure handler.
 */
@ControllerAdvice
class PasswordHashingBusyAdvice {

    @ExceptionHandler(PasswordHashingBusy.class)
    void busy(HttpServletResponse response) throws IOException {
        response.setHeader(HttpHeaders.RETRY_AFTER, String.valueOf(PasswordHashingBusy.RETRY_AFTER_SECONDS));
        response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    }
}
