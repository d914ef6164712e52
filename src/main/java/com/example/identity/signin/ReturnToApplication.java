package com.example.identity.signin;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;

import com.example.identity.Endpoints;
import com.example.identity.client.DatabaseRegisteredClientRepository;
import com.example.identity.common.LocalRedirect;
import com.example.identity.web.PagePolicy;

/**
 * The authorization request a page of the login leads back to (the login form's {@code redirect}, the
 * consent page's {@code request}, the return of a pending second step), read as the authorization endpoint
 * reads it and checked as it checks the application: a local {@code /oauth/authorize.php?...} path, a known
 * application that is not revoked, a redirect URI registered for it. Pages never trust their own parameters
 * for where the flow ends: only what passes here.
 *
 * @param url the local path of the authorization request
 * @param client the application
 * @param redirectUri the application's address the flow ends at (registered, checked)
 * @param query the request's parameters, still encoded ({@link #parameter} decodes one)
 */
public record ReturnToApplication(String url, RegisteredClient client, String redirectUri,
        MultiValueMap<String, String> query) {


    /** The checked authorization request behind {@code url}, or null when it is not one. */
    public static @Nullable ReturnToApplication of(@Nullable String url, RegisteredClientRepository clients) {
        // a local path (no control character, space or backslash: pages redirect to it)
        if (!LocalRedirect.isLocalPath(url) || !url.startsWith(Endpoints.AUTHORIZE + "?")) {
            return null;
        }
        MultiValueMap<String, String> query = UriComponentsBuilder.fromUriString(url).build().getQueryParams();
        String clientId = single(query, "client_id");
        String redirectUri = single(query, "redirect_uri");
        RegisteredClient client = clientId == null ? null : clients.findByClientId(clientId);
        if (client == null || redirectUri == null || !DatabaseRegisteredClientRepository.hasRedirectUri(client, redirectUri)
                || DatabaseRegisteredClientRepository.isRevoked(client)) {
            return null;
        }
        return new ReturnToApplication(url, client, redirectUri, query);
    }

    /**
     * Lets the forms of the page being answered reach the application's redirect URI at the end of their
     * redirect chain ({@link PagePolicy#allowingFormsTo}) when {@code url} is a checked authorization request;
     * otherwise the pages' policy stays as it is.
     */
    public static void allowFormsToReach(HttpServletResponse response, @Nullable String url,
            RegisteredClientRepository clients) {
        ReturnToApplication back = of(url, clients);
        if (back != null) {
            response.setHeader(PagePolicy.HEADER, PagePolicy.allowingFormsTo(back.redirectUri()));
        }
    }

    /** A parameter sent once, decoded; null when absent, repeated or malformed. */
    public @Nullable String parameter(String name) {
        return single(query, name);
    }

    private static @Nullable String single(MultiValueMap<String, String> query, String name) {
        var values = query.get(name);
        if (values == null || values.size() != 1 || values.get(0) == null) {
            return null;
        }
        try {
            // decoded as the servlet container decodes the authorization request's own parameters ('+' is a space)
            return URLDecoder.decode(values.get(0), StandardCharsets.UTF_8);
        }
        catch (IllegalArgumentException malformed) {
            return null;
        }
    }
}
