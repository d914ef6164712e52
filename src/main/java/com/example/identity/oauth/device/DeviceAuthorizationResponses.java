package com.example.identity.oauth.device;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.deviceflow.UserCodes;
import com.example.identity.oauth.error.TokenResponses;

/**
 * The answer of {@code POST /oauth/device.php} (RFC 8628 §3.2, decisions §16):
 * {@code device_code}, {@code user_code} as {@code XXXX-XXXX}, {@code verification_uri}
 * ({@code {issuer}/activar}, from the configured issuer, never from the request's Host header),
 * {@code verification_uri_complete} (with {@code ?code=}), {@code expires_in} (600) and {@code interval} (5),
 * with {@code Cache-Control: no-store} like every answer that holds a secret ({@link TokenResponses#write}).
 */
final class DeviceAuthorizationResponses implements AuthenticationSuccessHandler {


    private final TokenResponses responses;
    private final String issuer;

    DeviceAuthorizationResponses(TokenResponses responses, String issuer) {
        this.responses = responses;
        this.issuer = issuer;
    }

    @Override
    public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
            Authentication authentication) throws IOException {
        var started = (DeviceAuthorizationStart.DeviceStarted) authentication;
        String userCode = UserCodes.display(started.getUserCode().getTokenValue());
        String verificationUri = issuer + Endpoints.ACTIVATION;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("device_code", started.getDeviceCode().getTokenValue());
        body.put("user_code", userCode);
        body.put("verification_uri", verificationUri);
        body.put("verification_uri_complete",
                UriComponentsBuilder.fromUriString(verificationUri).queryParam("code", userCode).build().toUriString());
        body.put("expires_in", started.getDeviceCode().getExpiresAt().getEpochSecond()
                - started.getDeviceCode().getIssuedAt().getEpochSecond());
        body.put("interval", started.interval());
        responses.write(response, HttpStatus.OK, body);
    }
}
