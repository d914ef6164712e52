package com.example.identity.oauth.userinfo;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import tools.jackson.databind.json.JsonMapper;

import com.example.identity.common.JsonContent;

/**
 * The refusals of {@code /oauth/userinfo.php} (Spring Authorization Server's UserInfo endpoint, whose own
 * handler writes no {@code WWW-Authenticate}): RFC 6750 §3, the status and challenge of a
 * {@link BearerTokenError}, and a body {@code {"error": ..., "error_description": ...}} with a Spanish
 * description. An error that Spring Authorization Server made itself (it turns any unexpected exception
 * into {@code invalid_request} with the exception's message) is answered with a fixed description, so that
 * no internal message reaches the caller.
 */
final class BearerErrorResponses implements AuthenticationFailureHandler {

    private final JsonMapper json;

    BearerErrorResponses(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException exception) throws IOException {
        BearerTokenError error = exception instanceof BearerTokenError bearer ? bearer : classify(exception);
        response.setStatus(error.status().value());
        if (error.challenge() != null) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, error.challenge());
        }
        if (error.retryAfterSeconds() > 0) {
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(error.retryAfterSeconds()));
        }
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", error.getError().getErrorCode());
        body.put("error_description", error.getError().getDescription());
        byte[] bytes = json.writeValueAsBytes(body);
        response.setContentType(JsonContent.TYPE);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    private static BearerTokenError classify(AuthenticationException exception) {
        String code = exception instanceof OAuth2AuthenticationException oauth ? oauth.getError().getErrorCode() : null;
        if (OAuth2ErrorCodes.INVALID_TOKEN.equals(code)) {
            return BearerTokenError.invalid();
        }
        if (OAuth2ErrorCodes.INSUFFICIENT_SCOPE.equals(code)) {
            return BearerTokenError.insufficientScope("openid");
        }
        return BearerTokenError.invalidRequest("Solicitud invalida");
    }
}
