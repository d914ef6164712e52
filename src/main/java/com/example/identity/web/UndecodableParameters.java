package com.example.identity.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import com.example.identity.Endpoints;

/**
 * Refuses a request whose parameters the container cannot decode (a broken percent escape such as
 * {@code %zz}, a query or form that is not valid in its charset) with a 400 that the error dispatch
 * ({@link ErrorPages}) answers in the endpoint's own shape, before any other code reads a parameter.
 *
 * <p>Without it, Tomcat 11 drops the parameter and throws {@code InvalidParameterException} at the first
 * read, wherever that happens: when a controller was the first reader (a logged-in session's form to
 * {@code /api/tokens/create.php}), the exception left the servlet and Tomcat logged it at ERROR with the
 * parameter's name and value, which can be a {@code client_secret}, a {@code code_verifier} or a
 * {@code _csrf} token. Tomcat's own {@code FailedRequestFilter} did this job; it is not in the embedded
 * distribution. A form over {@code server.tomcat.max-http-form-post-size} is refused here too, with the
 * 413 Tomcat gives it. Parsing here costs nothing more: the parameters are parsed once per request and every
 * endpoint reads them anyway (a GET without a query string has none to parse).
 */
@Component
@Order(Endpoints.UNDECODABLE_PARAMETERS_FILTER)
public class UndecodableParameters extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            request.getParameterMap();
        }
        catch (InvalidParameterException undecodable) {
            // its message quotes the value, so it is not logged; the code is 400, or 413 for a form over
            // server.tomcat.max-http-form-post-size
            response.sendError(undecodable.getErrorCode() > 0 ? undecodable.getErrorCode()
                    : HttpServletResponse.SC_BAD_REQUEST);
            return;
        }
        chain.doFilter(request, response);
    }
}
