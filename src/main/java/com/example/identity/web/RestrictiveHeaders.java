package com.example.identity.web;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The headers of answers that are data, not pages (the JSON of {@code /api/**} and Tomcat's own
 * rejections): a Content-Security-Policy that allows nothing and no framing, as OWASP's REST Security
 * Cheat Sheet recommends, so that a JSON or error body opened in a browser can neither run nor be
 * framed. Pages have their own, richer policy in the web and authorization server chains.
 */
public final class RestrictiveHeaders {

    /** Nothing may be loaded, run or framed. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

    private RestrictiveHeaders() {
    }

    /** For answers written outside Spring Security's filters, where its header writers never ran. */
    public static void applyTo(HttpServletResponse response) {
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
    }
}
