package com.example.identity.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.transaction.TransactionException;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;
import com.example.identity.common.JsonContent;
import com.example.identity.web.RequestId;
import com.example.identity.web.Languages;
import com.example.identity.web.RestrictiveHeaders;

/**
 * The database is unreachable: every endpoint answers 503 with {@code Retry-After} in its own shape
 * (decisions §14), never a 500 or a login page that blames the password. Runs before Spring Security.
 * <ul>
 * <li>While {@link DatabaseAvailability} knows the database is down, requests are answered at once,
 * except the liveness and readiness probes (the actuator answers those: live, not ready), the static
 * files of the pages, and {@code /api/userinfo.php}, whose cached tokens may go on being served.</li>
 * <li>A request that meets the outage (a failure to get or keep a connection, thrown up to here, or an
 * answer about to be a 500 or a redirect while the database is down) is answered 503 instead, when
 * nothing was sent yet. A 500 while the database still looks up costs one connection check, so a genuine
 * internal error stays a 500.</li>
 * </ul>
 */
class DatabaseOutageFilter extends OncePerRequestFilter {

    static final String MESSAGE = "Servicio no disponible";
    static final String RETRY_AFTER_SECONDS = "5";

    private static final Logger log = LoggerFactory.getLogger(DatabaseOutageFilter.class);

    private static final byte[] API_BODY = ("{\"ok\":false,\"error\":\"" + MESSAGE + "\"}").getBytes(StandardCharsets.UTF_8);
    private static final byte[] OAUTH_BODY = ("{\"error\":\"" + MESSAGE + "\"}").getBytes(StandardCharsets.UTF_8);
    /** The endpoints added for standard clients speak RFC 6749 §5.2's shape (decisions §12). */
    private static final byte[] STANDARD_BODY = ("{\"error\":\"temporarily_unavailable\",\"error_description\":\""
            + MESSAGE + "\"}").getBytes(StandardCharsets.UTF_8);
    private static final byte[] PAGE = ("""
            <!DOCTYPE html>
            <html lang="es">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Servicio no disponible</title><link rel="stylesheet" href="/css/app.css"></head>
            <body><main class="container"><h1>Servicio no disponible</h1>
            <p id="error-message">El servicio no puede atender la solicitud en este momento. Vuelve a intentarlo en unos segundos.</p>
            <p><a href="/">Volver al inicio</a></p></main></body>
            </html>
            """).getBytes(StandardCharsets.UTF_8);
    /** The same page in English (decisions §22): fixed bytes too, as nothing may read the database here. */
    private static final byte[] PAGE_EN = ("""
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Service unavailable</title><link rel="stylesheet" href="/css/app.css"></head>
            <body><main class="container"><h1>Service unavailable</h1>
            <p id="error-message">The service cannot handle the request right now. Try again in a few seconds.</p>
            <p><a href="/">Back to the home page</a></p></main></body>
            </html>
            """).getBytes(StandardCharsets.UTF_8);
    private static final String PAGE_POLICY =
            "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private final DatabaseAvailability database;

    DatabaseOutageFilter(DatabaseAvailability database) {
        this.database = database;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI();
        if (database.isDown() && !goesOnDuringOutage(path)) {
            unavailable(path, request, response);
            return;
        }
        try {
            chain.doFilter(request, new Guarded(response, database));
        }
        catch (OutageMet outage) {
            answerOrRethrow(request, response, outage, outage);
        }
        catch (IOException | ServletException | RuntimeException e) {
            database.report(e);
            boolean outage = database.isDown()
                    || (hasDataAccessCause(e) && database.confirmDown());
            if (!outage) {
                throw e;
            }
            if (response.isCommitted()) {
                // The answer was already sent; what failed came after it: the session store's save at the end
                // of the request (sessions live in the database). Rethrowing would cut the connection and
                // lose a complete answer; only the session's last-access time is lost.
                log.warn("Database outage after the answer was sent; the session was not saved (request id {})",
                        RequestId.of(request));
                return;
            }
            answerOrRethrow(request, response, e, null);
        }
    }

    private void answerOrRethrow(HttpServletRequest request, HttpServletResponse response, Exception failure, OutageMet signal)
            throws IOException, ServletException {
        if (response.isCommitted()) {
            if (failure instanceof IOException io) {
                throw io;
            }
            if (failure instanceof ServletException servlet) {
                throw servlet;
            }
            throw (RuntimeException) failure;
        }
        if (signal == null) {
            log.warn("Request met a database outage; answered 503 (request id {})", RequestId.of(request));
        }
        response.reset();
        unavailable(request.getRequestURI(), request, response);
    }

    static boolean goesOnDuringOutage(String path) {
        return path.equals(Endpoints.LIVEZ) || path.equals(Endpoints.READYZ) || path.startsWith(Endpoints.CSS_PREFIX)
                || path.startsWith(Endpoints.JS_PREFIX) || path.equals(Endpoints.FAVICON)
                || path.equals(Endpoints.API_USERINFO) || path.equals(Endpoints.USERINFO);
    }

    private static boolean hasDataAccessCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DataAccessException || t instanceof TransactionException
                    || t instanceof java.sql.SQLException || t.getClass().getName().startsWith("org.hibernate.")) {
                return true;
            }
        }
        return false;
    }

    /** The endpoint's own shape: JSON under {@code /api/} and for the JSON endpoints of /oauth/, a page elsewhere. */
    static void unavailable(String path, HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        RestrictiveHeaders.applyTo(response);
        byte[] body;
        if (path.startsWith(Endpoints.API_PREFIX)) {
            response.setContentType(JsonContent.TYPE);
            body = API_BODY;
        }
        else if (Endpoints.isStandardJson(path)) {
            response.setContentType(JsonContent.TYPE);
            body = STANDARD_BODY;
        }
        else if (Endpoints.isOAuthJson(path)) {
            response.setContentType(JsonContent.TYPE);
            body = OAUTH_BODY;
        }
        else {
            response.setContentType("text/html;charset=UTF-8");
            response.setHeader("Content-Security-Policy", PAGE_POLICY);
            body = "en".equals(Languages.of(request).getLanguage()) ? PAGE_EN : PAGE;
        }
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** Thrown where an answer would have been a 500 or a redirect while the database is down. */
    static final class OutageMet extends RuntimeException {

        OutageMet() {
            super("database unreachable", null, false, false);
        }
    }

    /**
     * Stops the answers that code written for a reachable database would give during an outage: a 500
     * ("Error interno", which the token endpoint writes itself for a failed exchange) and a redirect (the
     * login form's "wrong password" redirect when the account could not be read).
     */
    static final class Guarded extends HttpServletResponseWrapper {

        private final DatabaseAvailability database;

        Guarded(HttpServletResponse response, DatabaseAvailability database) {
            super(response);
            this.database = database;
        }

        private void check(int status) {
            if (status >= 500 && status != SC_SERVICE_UNAVAILABLE
                    && (database.isDown() || (status == SC_INTERNAL_SERVER_ERROR && database.confirmDown()))) {
                throw new OutageMet();
            }
        }

        @Override
        public void setStatus(int sc) {
            check(sc);
            super.setStatus(sc);
        }

        @Override
        public void sendError(int sc) throws IOException {
            check(sc);
            super.sendError(sc);
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            check(sc);
            super.sendError(sc, msg);
        }

        @Override
        public void sendRedirect(String location) throws IOException {
            if (database.isDown()) {
                throw new OutageMet();
            }
            super.sendRedirect(location);
        }

        @Override
        public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
            if (database.isDown()) {
                throw new OutageMet();
            }
            super.sendRedirect(location, sc, clearBuffer);
        }
    }
}
