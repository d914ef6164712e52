package com.example.identity.training;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.example.identity.Endpoints;
import com.example.identity.crypto.Secrets;

/**
 * One browser of the training run ({@link TrainingRun}), logged in as its own account (the login throttle holds one
 * attempt of an account and address at a time), and the run's two applications: a web one (a secret) and a native
 * one (PKCE; it always gets a refresh token, decisions §16). Over plain HTTP to 127.0.0.1; cookies are kept by hand,
 * so that a {@code Secure} session cookie (production settings) is still sent back here.
 */
final class TrainingClient {

    /** The run's applications, both first-party (no consent page). */
    record Applications(String webId, String webSecret, String nativeId) {
        static final String WEB_REDIRECT = "https://training.invalid/callback";
        static final String NATIVE_REDIRECT = "http://127.0.0.1/callback";
    }

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"");
    private static final Pattern JSON_STRING = Pattern.compile("\"(access_token|refresh_token)\"\\s*:\\s*\"([^\"]+)\"");

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String email;
    private final String password;
    private final Applications applications;
    private final Map<String, String> cookies = new LinkedHashMap<>();

    TrainingClient(int port, String email, String password, Applications applications) {
        this.base = "http://127.0.0.1:" + port;
        this.email = email;
        this.password = password;
        this.applications = applications;
    }

    /** A password login from the login page's form (its CSRF token included), as a person does it. */
    void logIn() throws IOException, InterruptedException {
        cookies.clear();
        String page = send(get(Endpoints.LOGIN)).body();
        Matcher csrf = CSRF.matcher(page);
        if (!csrf.find()) {
            throw new IllegalStateException("no CSRF token on the login page");
        }
        HttpResponse<String> login = send(post(Endpoints.LOGIN,
                Map.of("_csrf", csrf.group(1), "username", email, "password", password)));
        expect(login, 302, "login");
        String next = login.headers().firstValue("Location").orElse("");
        if (next.contains("/login")) {
            throw new IllegalStateException("login refused (" + next + ")");
        }
    }

    /**
     * The code flow of a logged-in person at the web application: the authorization request, the exchange with the
     * secret, UserInfo with the access token (OpenID Connect's and the legacy one).
     */
    void webFlow() throws IOException, InterruptedException {
        String code = code(applications.webId(), Applications.WEB_REDIRECT, "");
        Map<String, String> tokens = tokens(send(post(Endpoints.TOKEN, Map.of("grant_type", "authorization_code",
                "code", code, "redirect_uri", Applications.WEB_REDIRECT, "client_id", applications.webId(),
                "client_secret", applications.webSecret()))));
        String accessToken = tokens.get("access_token");
        expect(send(bearer(Endpoints.USERINFO, accessToken)), 200, "UserInfo");
        expect(send(bearer(Endpoints.API_USERINFO, accessToken)), 200, "/api/userinfo.php");
    }

    /** The native application's flow: PKCE, the exchange without a secret, then a refresh. */
    void nativeFlow() throws IOException, InterruptedException {
        String verifier = Secrets.randomUrlSafe(32);
        String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(
                HexFormat.of().parseHex(Secrets.sha256Hex(verifier)));
        String code = code(applications.nativeId(), Applications.NATIVE_REDIRECT,
                "&code_challenge=" + challenge + "&code_challenge_method=S256");
        Map<String, String> tokens = tokens(send(post(Endpoints.TOKEN, Map.of("grant_type", "authorization_code",
                "code", code, "redirect_uri", Applications.NATIVE_REDIRECT, "client_id", applications.nativeId(),
                "code_verifier", verifier))));
        String refresh = tokens.get("refresh_token");
        if (refresh == null) {
            throw new IllegalStateException("no refresh token for the native application");
        }
        tokens(send(post(Endpoints.TOKEN, Map.of("grant_type", "refresh_token", "refresh_token", refresh,
                "client_id", applications.nativeId()))));
    }

    private String code(String clientId, String redirectUri, String more) throws IOException, InterruptedException {
        HttpResponse<String> authorize = send(get(Endpoints.AUTHORIZE + "?response_type=code&client_id=" + clientId
                + "&redirect_uri=" + encode(redirectUri) + "&scope=" + encode("openid email profile")
                + "&state=training&nonce=training" + more));
        expect(authorize, 302, "authorization request");
        String location = authorize.headers().firstValue("Location").orElse("");
        int at = location.indexOf("code=");
        if (!location.startsWith(redirectUri) || at < 0) {
            throw new IllegalStateException("no code in the authorization answer (" + location.replaceAll("\\?.*", "")
                    + ")");
        }
        return location.substring(at + 5).split("&")[0];
    }

    private static Map<String, String> tokens(HttpResponse<String> answer) {
        expect(answer, 200, "token endpoint");
        Map<String, String> found = new LinkedHashMap<>();
        Matcher matcher = JSON_STRING.matcher(answer.body());
        while (matcher.find()) {
            found.put(matcher.group(1), matcher.group(2));
        }
        if (!found.containsKey("access_token")) {
            throw new IllegalStateException("no access token in the token endpoint's answer");
        }
        return found;
    }

    private static void expect(HttpResponse<String> answer, int status, String what) {
        if (answer.statusCode() != status) {
            throw new IllegalStateException(what + " answered " + answer.statusCode());
        }
    }

    private HttpRequest.Builder get(String path) {
        return withCookies(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    private HttpRequest.Builder bearer(String path, String token) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token).GET();
    }

    private HttpRequest.Builder post(String path, Map<String, String> form) {
        String body = form.entrySet().stream().map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
        return withCookies(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpRequest.Builder withCookies(HttpRequest.Builder request) {
        if (!cookies.isEmpty()) {
            request.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining("; ")));
        }
        return request;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> answer = http.send(request.timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        for (String header : answer.headers().allValues("Set-Cookie")) {
            String pair = header.split(";", 2)[0];
            int eq = pair.indexOf('=');
            if (eq > 0) {
                cookies.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return answer;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
