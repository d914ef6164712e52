package com.example.identity.login;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * After a failed login: back to the form with the generic message and the same {@code redirect}, with
 * no authenticated session and nothing that tells whether the e-mail exists.
 */
public class LoginFailureHandler implements AuthenticationFailureHandler {

    private final LoginThrottle throttle;

    public LoginFailureHandler(LoginThrottle throttle) {
        this.throttle = throttle;
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException exception) throws IOException {
        throttle.recordFailure(request.getParameter("username"), request.getRemoteAddr());
        var target = UriComponentsBuilder.fromPath("/login/").queryParam("error", "1");
        String redirect = LocalRedirect.orNull(request.getParameter("redirect"));
        if (redirect != null) {
            target.queryParam("redirect", "{redirect}");
            response.sendRedirect(request.getContextPath() + target.encode().buildAndExpand(redirect).toUriString());
        } else {
            response.sendRedirect(request.getContextPath() + target.build().toUriString());
        }
    }
}
