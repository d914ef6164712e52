package com.example.identity.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;

import com.example.identity.Endpoints;
import com.example.identity.common.JsonContent;

/**
 * Tomcat's last word on a request it rejects before the application sees it (a control character in a
 * header, a malformed request line, an oversized header): the same shapes as {@link ErrorPages}, JSON
 * under {@code /api/} and {@code /oauth/}, a short Spanish page elsewhere, instead of Tomcat's HTML
 * report with its version number. Spring Security's header writers never ran for these requests, so the
 * restrictive headers of {@link RestrictiveHeaders} are set here.
 */
public class EndpointShapedErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int code = response.getStatus();
        if (code < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus status = HttpStatus.resolve(code);
        String message = ErrorPages.message(status == null ? HttpStatus.BAD_REQUEST : status);
        String path = path(request);
        String contentType;
        String body;
        if (path.startsWith(Endpoints.API_PREFIX)) {
            contentType = JsonContent.TYPE;
            body = "{\"ok\":false,\"error\":\"" + message + "\"}";
        }
        else if (Endpoints.isOAuthJson(path)) {
            contentType = JsonContent.TYPE;
            body = "{\"error\":\"" + message + "\"}";
        }
        else {
            contentType = "text/html;charset=UTF-8";
            body = "<!DOCTYPE html><html lang=\"es\"><head><meta charset=\"utf-8\"><title>Error</title></head>"
                    + "<body><h1>" + message + "</h1></body></html>";
        }
        try {
            response.setContentType(contentType);
            response.setHeader("Cache-Control", "no-store");
            RestrictiveHeaders.applyTo(response);
            response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
            response.finishResponse();
        }
        catch (IOException | IllegalStateException e) {
            // the connection is gone; nothing more to say
        }
    }

    private static String path(Request request) {
        try {
            String uri = request.getRequestURI();
            if (uri != null) {
                return uri;
            }
        }
        catch (RuntimeException e) {
            // fall through to the raw request line
        }
        var raw = request.getCoyoteRequest().requestURI();
        return raw == null || raw.isNull() ? "" : raw.toString();
    }
}
