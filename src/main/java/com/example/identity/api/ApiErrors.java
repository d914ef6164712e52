package com.example.identity.api;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import com.example.identity.common.JsonContent;

/**
 * The one place where the controllers of {@code /api/} turn a refusal into its answer: the status, the
 * contract's content type, {@code Cache-Control: no-store} and {@code {"ok":false,"error":"..."}}
 * (decisions §1). Restricted to this package; the security chains' refusals, which happen before any
 * controller, are written by {@link ApiJson#error} in the same shape, and anything else that goes wrong
 * reaches the error dispatch ({@code web/ErrorPages}), which answers in the same shape too.
 */
@RestControllerAdvice(basePackageClasses = ApiErrors.class)
class ApiErrors {

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<ApiJson.Error> refused(ApiProblem problem) {
        var answer = ResponseEntity.status(problem.status())
                .contentType(JsonContent.MEDIA_TYPE)
                .header(HttpHeaders.CACHE_CONTROL, "no-store");
        if (problem.wwwAuthenticate() != null) {
            answer.header(HttpHeaders.WWW_AUTHENTICATE, problem.wwwAuthenticate());
        }
        return answer.body(new ApiJson.Error(false, problem.error()));
    }
}
