package com.example.identity.support;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A browser without a screen for integration tests: real HTTP to the running application, a cookie jar,
 * no automatic redirects (tests assert each {@code Location}), and helpers to read the CSRF token of a
 * page and to log in through {@code /login/} exactly as a person's browser does.
 */
public final class WebClient {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final String base;
    private final CookieManager cookies;
    private final HttpClient http;

    public WebClient(int port) {
        this("http://localhost:" + port);
    }

    public WebClient(String base) {
        this(base, new CookieManager(null, CookiePolicy.ACCEPT_ALL));
    }

    private WebClient(String base, CookieManager cookies) {
        this.base = base;
        this.cookies = cookies;
        this.http = HttpClient.newBuilder()
                .cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** The same browser (same cookies) talking to another instance on this host, as behind a load balancer. */
    public WebClient at(int port) {
        return new WebClient("http://localhost:" + port, cookies);
    }

    public String base() {
        return base;
    }

    public HttpResponse<String> get(String path, String... headers) {
        var builder = HttpRequest.newBuilder(URI.create(base + path)).GET().timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return send(builder.build());
    }

    public HttpResponse<String> postForm(String path, Map<String, String> form, String... headers) {
        return postRaw(path, encode(form), headers);
    }

    public HttpResponse<String> postRaw(String path, String body, String... headers) {
        var builder = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return send(builder.build());
    }

    public HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The CSRF token of an HTML page's form. */
    public static String csrfOf(String html) {
        Matcher m = CSRF.matcher(html);
        if (!m.find()) {
            throw new AssertionError("no _csrf field in page:\n" + html);
        }
        return m.group(1);
    }

    /** GET {@code path} and return the CSRF token of its form. */
    public String csrfFrom(String path) {
        return csrfOf(get(path).body());
    }

    /** Logs in through the login page; returns the POST's response (a 302 on success). */
    public HttpResponse<String> login(String email, String password) {
        return login(email, password, null);
    }

    public HttpResponse<String> login(String email, String password, String redirect) {
        String csrf = csrfFrom("/login/");
        Map<String, String> form = new LinkedHashMap<>();
        form.put("username", email);
        form.put("password", password);
        form.put("_csrf", csrf);
        if (redirect != null) {
            form.put("redirect", redirect);
        }
        return postForm("/login/", form);
    }

    public Optional<String> sessionId() {
        return cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals("JSESSIONID"))
                .map(HttpCookie::getValue)
                .findFirst();
    }

    public static String encode(Map<String, String> form) {
        return form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    public static String location(HttpResponse<?> response) {
        return response.headers().firstValue("Location").orElseThrow(() -> new AssertionError("no Location header"));
    }
}
