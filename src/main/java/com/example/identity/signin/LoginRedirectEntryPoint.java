package com.example.identity.signin;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;

import com.example.identity.Endpoints;
import com.example.identity.common.LocalRedirect;

/**
 * Sends a visitor without a session to {@code /login/?redirect=<URL-encoded path and query of this
 * request>} (specification §4.3, decisions §2), so the login page brings them back afterwards. No
 * request is saved in a session: the way back travels in the URL.
 */
public class LoginRedirectEntryPoint implements AuthenticationEntryPoint {

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException authException) throws IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String query = request.getQueryString();
        String back = query == null ? path : path + "?" + query;
        response.sendRedirect(request.getContextPath() + LocalRedirect.pageWithRedirect(Endpoints.LOGIN, null, back));
    }
}
