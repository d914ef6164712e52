package com.example.identity.oauth.par;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2PushedAuthorizationRequestAuthenticationToken;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;

import com.example.identity.oauth.error.TokenResponses;
import com.example.identity.oauth.store.PushedRequests;

/**
 * The answer of {@code /oauth/par.php} (RFC 9126 §2.2, decisions §28): 201
 * {@code {"request_uri":"urn:ietf:params:oauth:request_uri:...","expires_in":60}}, in the token endpoint's JSON
 * ({@code application/json;charset=UTF-8}, {@code Cache-Control: no-store}). {@code expires_in} is the stored
 * request's lifetime, not a difference of clocks that could round down to 59.
 */
final class PushedRequestResponses implements AuthenticationSuccessHandler {

    private final TokenResponses responses;

    PushedRequestResponses(TokenResponses responses) {
        this.responses = responses;
    }

    @Override
    public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
            Authentication authentication) throws IOException {
        var pushed = (OAuth2PushedAuthorizationRequestAuthenticationToken) authentication;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("request_uri", pushed.getRequestUri());
        body.put("expires_in", PushedRequests.LIFETIME.toSeconds());
        responses.write(response, HttpStatus.CREATED, body);
    }
}
