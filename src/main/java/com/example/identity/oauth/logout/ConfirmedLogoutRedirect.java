package com.example.identity.oauth.logout;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.logout.LogoutSuccessHandler;
import org.springframework.stereotype.Component;

import com.example.identity.Endpoints;
import com.example.identity.client.ClientLogoutUris;

/**
 * Where {@code POST /logout} sends the browser once the session ended (decisions §12.7). The confirmation page
 * of {@link LogoutEndpoint} (a logout request without a valid hint) posts, besides its CSRF token, the
 * {@code post_logout_redirect_uri}, {@code client_id} and {@code state} of the request it confirms: when that
 * address is registered, byte for byte, for that application, checked again here (the form's fields are
 * whatever the browser sends, so they prove nothing), the browser goes there with {@code state}; otherwise,
 * and for every other logout (the header's button), to {@code /login/?logout}. No open redirect: an address
 * no application registered is never followed.
 */
@Component
public class ConfirmedLogoutRedirect implements LogoutSuccessHandler {


    private final ClientLogoutUris logoutUris;

    ConfirmedLogoutRedirect(ClientLogoutUris logoutUris) {
        this.logoutUris = logoutUris;
    }

    @Override
    public void onLogoutSuccess(HttpServletRequest request, HttpServletResponse response, Authentication authentication)
            throws IOException {
        String postLogout = LogoutEndpoint.parameter(request, "post_logout_redirect_uri");
        String clientId = LogoutEndpoint.parameter(request, "client_id");
        if (postLogout != null && clientId != null && logoutUris.isRegistered(clientId, postLogout)) {
            response.sendRedirect(LogoutEndpoint.withState(postLogout, LogoutEndpoint.parameter(request, "state")));
            return;
        }
        response.sendRedirect(request.getContextPath() + Endpoints.LOGGED_OUT);
    }
}
