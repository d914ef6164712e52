package com.example.identity.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.MDC;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;


/**
 * Gives every request a short random id, kept in the log's MDC as {@code requestId} and as a request
 * attribute, so that an "Error interno en el servidor" body can name the id that the log line of the
 * same failure carries, with no detail of the failure in the body itself.
 */
@Component
@Order(Endpoints.REQUEST_ID_FILTER)
public class RequestId extends OncePerRequestFilter {

    public static final String ATTRIBUTE = RequestId.class.getName();
    public static final String MDC_KEY = "requestId";

    /** The id of {@code request}, made on first use if the filter did not run (e.g. in a unit test). */
    public static String of(HttpServletRequest request) {
        Object id = request.getAttribute(ATTRIBUTE);
        if (id instanceof String s) {
            return s;
        }
        // not a secret: a fast non-cryptographic random spares SecureRandom's global lock on every request
        String made = String.format("%016x", java.util.concurrent.ThreadLocalRandom.current().nextLong());
        request.setAttribute(ATTRIBUTE, made);
        return made;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String id = of(request);
        MDC.put(MDC_KEY, id);
        try {
            chain.doFilter(request, response);
        }
        finally {
            MDC.remove(MDC_KEY);
        }
    }

    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }
}
