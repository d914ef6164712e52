package com.example.identity.abuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;

import com.example.identity.Endpoints;
import com.example.identity.common.JsonContent;

/** The 429 answer of a spent budget, in each endpoint family's own JSON shape, with {@code Retry-After}. */
public enum TooManyRequests {

    /** {@code /oauth/token.php}: {@code {"error":...}}. */
    TOKEN_ENDPOINT("{\"error\":\"Demasiadas solicitudes, inténtalo más tarde\"}"),
    /** {@code /oauth/revoke.php}, {@code /oauth/introspect.php}: RFC 6749 §5.2's shape. */
    STANDARD("{\"error\":\"temporarily_unavailable\",\"error_description\":\"Demasiadas solicitudes, intentalo mas tarde\"}"),
    /** {@code /api/**}: {@code {"ok":false,"error":...}}. */
    API("{\"ok\":false,\"error\":\"Demasiadas solicitudes, inténtalo más tarde\"}");

    private final byte[] body;

    TooManyRequests(String body) {
        this.body = body.getBytes(StandardCharsets.UTF_8);
    }

    /** The shape of the client-authenticated OAuth endpoint that {@code request} is for. */
    public static TooManyRequests forOAuthEndpoint(jakarta.servlet.http.HttpServletRequest request) {
        String path = request.getRequestURI();
        return path.equals(Endpoints.REVOKE) || path.equals(Endpoints.INTROSPECT) ? STANDARD : TOKEN_ENDPOINT;
    }

    /** Writes the 429: {@code Retry-After} in seconds, {@code Cache-Control: no-store}, the JSON body. */
    public void write(HttpServletResponse response, long retryAfterSeconds) throws IOException {
        response.setStatus(429);
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentType(JsonContent.TYPE);
        response.getOutputStream().write(body);
    }
}
