package com.example.identity.leaving;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import com.example.identity.support.WebClient;

/**
 * A browser for several sites at once: one cookie jar for every host, redirects followed across hosts (at most
 * 10), as a person's browser goes from a web site to this service and back.
 */
final class Browser {

    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

    /** GETs {@code url} and follows its redirects; the last answer. */
    HttpResponse<String> follow(String url) {
        URI at = URI.create(url);
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(at).GET().build());
            if (response.statusCode() / 100 != 3) {
                return response;
            }
            at = at.resolve(response.headers().firstValue("Location").orElseThrow());
        }
        throw new AssertionError("more than 10 redirects from " + url);
    }

    /** GETs {@code url} without following a redirect. */
    HttpResponse<String> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET().build());
    }

    HttpResponse<String> postForm(String url, Map<String, String> form) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(WebClient.encode(form))).build());
    }

    /** Logs in at the service {@code issuer}. */
    void login(String issuer, String email, String password) {
        String csrf = WebClient.csrfOf(get(issuer + "/login/").body());
        HttpResponse<String> login = postForm(issuer + "/login/", Map.of("username", email, "password", password,
                "_csrf", csrf));
        if (login.statusCode() != 302) {
            throw new AssertionError("login: " + login.statusCode());
        }
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
