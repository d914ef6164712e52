package com.example.identity.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

import com.example.identity.common.JsonContent;

/**
 * The answers of {@code /api/*} (specification §4.1, decisions §1): every one
 * {@code application/json;charset=UTF-8} with {@code Cache-Control: no-store}. Controllers return
 * {@link #ok} bodies and throw {@link ApiProblem} for refusals ({@link ApiErrors} answers them); the
 * security chains, which run before any controller, write their refusals with {@link #error}.
 */
public final class ApiJson {

    private ApiJson() {
    }

    /** {@code {"ok":false,"error":"..."}}. */
    record Error(boolean ok, String error) {
    }

    /** A 200 with {@code body}, the contract's content type and {@code Cache-Control: no-store}. */
    public static <T> ResponseEntity<T> ok(T body) {
        return ResponseEntity.ok().contentType(JsonContent.MEDIA_TYPE).header(HttpHeaders.CACHE_CONTROL, "no-store").body(body);
    }

    /** Writes {@code {"ok":false,"error":"..."}} straight to the response (for filters and security handlers). */
    public static void error(HttpServletResponse response, int status, String error) throws IOException {
        response.setStatus(status);
        response.setContentType(JsonContent.TYPE);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.getOutputStream().write(("{\"ok\":false,\"error\":\"" + escape(error) + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    /** JSON string escaping for the fixed Spanish messages (quotes, backslashes and control characters). */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            }
            else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            }
            else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
