package com.example.identity.bench;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.css;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.flushCookieJar;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

/**
 * The three scenarios of the performance issue, one after the other, each for {@code bench.seconds}:
 * <ul>
 * <li>{@code userinfo}: 16 users call {@code /api/userinfo.php} with 50 rotating access tokens obtained
 * through real logins and code flows;</li>
 * <li>{@code sso-code}: 16 logged-in users run authorize → code → token ({@code openid email profile},
 * a nonce) and verify the id_token against the JWKS (RS256, iss, aud, nonce, exp);</li>
 * <li>{@code password-login}: 8 users from no session: authorize → login form → POST → authorize →
 * code → token → id_token check. Argon2id dominates it.</li>
 * </ul>
 * After {@code userinfo}, {@code dpop-userinfo}: the same endpoint with 50 DPoP-bound tokens, each with its own key and
 * a new proof per call (decisions §28). Then {@code refresh}, {@code client-credentials}, {@code tickets} and
 * {@code guests} (16 users each; see each scenario).
 * Users {@code bench001..bench050@example.com} and the client {@code bench-app} come from the service's
 * {@code bench} profile. All traffic goes to {@code bench.url} (127.0.0.1).
 */
public class IdentitySimulation extends Simulation {

    static final String BASE = System.getProperty("bench.url", "http://127.0.0.1:8088");
    static final int SECONDS = Integer.getInteger("bench.seconds", 30);
    static final String CLIENT_ID = "bench-app";
    /** The game server of BenchmarkData. */
    static final String SERVER_ID = "bench-server";
    static final String SERVER_SECRET = "bench-server-secret";
    /** The native application of BenchmarkData that accepts guests (decisions §24). */
    static final String LAUNCHER_ID = "bench-launcher";
    static final String CLIENT_SECRET = "bench-secret";
    static final String REDIRECT_URI = "http://127.0.0.1:9999/callback";
    static final String PASSWORD = "bench-password-123";
    static final String SCOPE = "openid email profile";
    static final Pattern CODE = Pattern.compile("[?&]code=([^&]+)");

    final JWKSet jwks = fetchJwks();
    final List<String> accessTokens = obtainAccessTokens(50, false).stream().map(PlayerToken::value).toList();
    /** The benchmark users' tokens bound to DPoP keys, one key per user, as launchers hold them. */
    final List<PlayerToken> boundTokens = obtainAccessTokens(50, true);
    final AtomicInteger nextUser = new AtomicInteger();

    HttpProtocolBuilder protocol = http.baseUrl(BASE).disableFollowRedirect().disableUrlEncoding()
            .acceptHeader("*/*").shareConnections();

    Iterator<Map<String, Object>> userFeeder() {
        return Stream.generate(() -> Map.<String, Object>of("username",
                "bench%03d@example.com".formatted(nextUser.getAndIncrement() % 50 + 1))).iterator();
    }

    static String authorizePath(String nonce) {
        return "/oauth/authorize.php?response_type=code&client_id=" + CLIENT_ID + "&redirect_uri="
                + URLEncoder.encode(REDIRECT_URI, StandardCharsets.UTF_8) + "&scope=openid%20email%20profile&state=st-"
                + nonce + "&nonce=" + nonce;
    }

    /** The id_token checks a relying party makes (specification §4.8). */
    boolean verify(String idToken, String nonce) {
        try {
            SignedJWT jwt = SignedJWT.parse(idToken);
            RSAKey key = (RSAKey) jwks.getKeyByKeyId(jwt.getHeader().getKeyID());
            var claims = jwt.getJWTClaimsSet();
            return key != null && "RS256".equals(jwt.getHeader().getAlgorithm().getName())
                    && jwt.verify(new RSASSAVerifier(key)) && BASE.equals(claims.getIssuer())
                    && claims.getAudience().contains(CLIENT_ID) && nonce.equals(claims.getStringClaim("nonce"))
                    && claims.getExpirationTime().after(new Date());
        }
        catch (Exception e) {
            return false;
        }
    }

    ChainBuilder codeForToken = exec(session -> {
        Matcher m = CODE.matcher(session.getString("location"));
        return m.find() ? session.set("code", URLDecoder.decode(m.group(1), StandardCharsets.UTF_8)) : session.markAsFailed();
    }).exec(http("token").post("/oauth/token.php")
            .formParam("grant_type", "authorization_code")
            .formParam("code", "#{code}")
            .formParam("redirect_uri", REDIRECT_URI)
            .formParam("client_id", CLIENT_ID)
            .formParam("client_secret", CLIENT_SECRET)
            .check(status().is(200))
            .check(jsonPath("$.id_token").transformWithSession((idToken, session) -> verify(idToken, session.getString("nonce")))
                    .is(true)));

    ScenarioBuilder userinfo = scenario("userinfo")
            .during(Duration.ofSeconds(SECONDS)).on(
                    exec(session -> session.set("token", accessTokens.get(Math.floorMod(
                            (int) (System.nanoTime() ^ session.userId()), accessTokens.size()))))
                            .exec(http("userinfo").get("/api/userinfo.php").header("Authorization", "Bearer #{token}")
                                    .check(status().is(200))));

    /**
     * Launchers calling {@code /api/userinfo.php} with DPoP-bound tokens (decisions §28, RFC 9449): each call carries a
     * new proof of the token's key ({@code htm}, {@code htu}, {@code iat}, a new {@code jti}, {@code ath}), made here
     * (an ES256 signature on the load generator's side); the service checks the proof's signature and records its
     * {@code jti} (one INSERT, {@code apitoken/QueryCountIT}) besides the cached token lookup of {@code userinfo}.
     */
    ScenarioBuilder dpopUserinfo = scenario("dpop-userinfo")
            .during(Duration.ofSeconds(SECONDS)).on(
                    exec(session -> {
                        PlayerToken token = boundTokens.get(Math.floorMod((int) (System.nanoTime() ^ session.userId()),
                                boundTokens.size()));
                        return session.set("token", token.value()).set("proof", token.proof("GET",
                                BASE + "/api/userinfo.php"));
                    })
                            .exec(http("dpop-userinfo").get("/api/userinfo.php").header("Authorization", "DPoP #{token}")
                                    .header("DPoP", "#{proof}").check(status().is(200))));

    /** The same tokens at OpenID Connect's UserInfo endpoint (issue 17: as cheap as /api/userinfo.php). */
    ScenarioBuilder oidcUserinfo = scenario("oidc-userinfo")
            .during(Duration.ofSeconds(SECONDS)).on(
                    exec(session -> session.set("token", accessTokens.get(Math.floorMod(
                            (int) (System.nanoTime() ^ session.userId()), accessTokens.size()))))
                            .exec(http("oidc-userinfo").get("/oauth/userinfo.php").header("Authorization", "Bearer #{token}")
                                    .check(status().is(200))));

    /**
     * A relying party keeping its users logged in: each virtual user logs in once with offline_access, then
     * refreshes in a loop, always with the newest refresh token (rotation: each one works once). Every
     * refresh stores a new access and refresh token, spends the old one and signs an id_token, like a code
     * exchange (issue 17: a refresh costs no more than an exchange).
     */
    ScenarioBuilder refresh = scenario("refresh")
            .feed(userFeeder())
            .exec(http("refresh login page").get("/login/").check(css("input[name=_csrf]", "value").saveAs("csrf")))
            .exec(http("refresh login").post("/login/").formParam("username", "#{username}").formParam("password", PASSWORD)
                    .formParam("_csrf", "#{csrf}").check(status().is(302)))
            .exec(session -> session.set("nonce", UUID.randomUUID().toString()))
            .exec(http("refresh authorize").get(session -> authorizePath(session.getString("nonce"))
                    .replace("scope=openid%20email%20profile", "scope=openid%20email%20profile%20offline_access"))
                    .check(status().is(302), header("Location").saveAs("consentUrl")))
            // offline_access always asks for consent, even of a first-party application: approve it once
            .exec(http("refresh consent page").get("#{consentUrl}")
                    .check(status().is(200), css("input[name=_csrf]", "value").saveAs("csrf"),
                            css("input[name=request]", "value").saveAs("request")))
            .exec(http("refresh consent").post("/oauth/consent").formParam("request", "#{request}")
                    .formParam("decision", "allow").formParam("_csrf", "#{csrf}")
                    .check(status().is(302), header("Location").saveAs("backTo")))
            .exec(http("refresh authorize again").get("#{backTo}")
                    .check(status().is(302), header("Location").saveAs("location")))
            .exec(session -> {
                Matcher m = CODE.matcher(session.getString("location"));
                return m.find() ? session.set("code", URLDecoder.decode(m.group(1), StandardCharsets.UTF_8))
                        : session.markAsFailed();
            })
            .exec(http("refresh first tokens").post("/oauth/token.php")
                    .formParam("grant_type", "authorization_code")
                    .formParam("code", "#{code}")
                    .formParam("redirect_uri", REDIRECT_URI)
                    .formParam("client_id", CLIENT_ID)
                    .formParam("client_secret", CLIENT_SECRET)
                    .check(status().is(200), jsonPath("$.refresh_token").saveAs("refreshToken")))
            .during(Duration.ofSeconds(SECONDS)).on(
                    exec(http("refresh").post("/oauth/token.php")
                            .formParam("grant_type", "refresh_token")
                            .formParam("refresh_token", "#{refreshToken}")
                            .formParam("client_id", CLIENT_ID)
                            .formParam("client_secret", CLIENT_SECRET)
                            .check(status().is(200), jsonPath("$.id_token").exists(),
                                    jsonPath("$.refresh_token").saveAs("refreshToken"))));

    /**
     * Game servers asking for their own tokens (decisions §21, issue 29: a client-credentials token costs no
     * more than a code exchange): client_secret_basic, one token per request, each stored like an exchange's.
     */
    ScenarioBuilder clientCredentials = scenario("client-credentials")
            .during(Duration.ofSeconds(SECONDS)).on(
                    exec(http("client-credentials").post("/oauth/token.php")
                            .basicAuth(SERVER_ID, SERVER_SECRET)
                            .formParam("grant_type", "client_credentials")
                            .check(status().is(200), jsonPath("$.access_token").exists())));

    /** The checks a game server makes of a ticket (docs/game-servers.md), but the replay store's. */
    boolean verifyTicket(String ticket) {
        try {
            SignedJWT jwt = SignedJWT.parse(ticket);
            RSAKey key = (RSAKey) jwks.getKeyByKeyId(jwt.getHeader().getKeyID());
            var claims = jwt.getJWTClaimsSet();
            return key != null && "RS256".equals(jwt.getHeader().getAlgorithm().getName())
                    && "ticket+jwt".equals(jwt.getHeader().getType().getType()) && jwt.verify(new RSASSAVerifier(key))
                    && BASE.equals(claims.getIssuer()) && claims.getAudience().equals(List.of(SERVER_ID))
                    && claims.getExpirationTime().after(new Date());
        }
        catch (Exception e) {
            return false;
        }
    }

    /**
     * Games asking for tickets for their game server (decisions §25, issue 43: one per match join, no database
     * work): the benchmark application exchanges its players' access tokens (the 50 of {@code userinfo}) for
     * tickets for {@code bench-server}, each checked as a game server checks it (RS256 against the JWKS, typ,
     * iss, aud, exp).
     */
    ScenarioBuilder tickets = scenario("tickets")
            .during(Duration.ofSeconds(SECONDS)).on(
                    exec(session -> session.set("token", accessTokens.get(Math.floorMod(
                            (int) (System.nanoTime() ^ session.userId()), accessTokens.size()))))
                            .exec(http("tickets").post("/oauth/token.php")
                                    .basicAuth(CLIENT_ID, CLIENT_SECRET)
                                    .formParam("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")
                                    .formParam("subject_token", "#{token}")
                                    .formParam("subject_token_type", "urn:ietf:params:oauth:token-type:access_token")
                                    .formParam("audience", SERVER_ID)
                                    .check(status().is(200), jsonPath("$.access_token").transform(this::verifyTicket)
                                            .is(true))));

    /** The checks a game makes of a guest's id_token (docs/guests.md): a relying party's, and {@code invitado}. */
    boolean verifyGuest(String idToken) {
        try {
            SignedJWT jwt = SignedJWT.parse(idToken);
            RSAKey key = (RSAKey) jwks.getKeyByKeyId(jwt.getHeader().getKeyID());
            var claims = jwt.getJWTClaimsSet();
            return key != null && "RS256".equals(jwt.getHeader().getAlgorithm().getName())
                    && jwt.verify(new RSASSAVerifier(key)) && BASE.equals(claims.getIssuer())
                    && claims.getAudience().equals(List.of(LAUNCHER_ID)) && claims.getExpirationTime().after(new Date())
                    && Boolean.TRUE.equals(claims.getBooleanClaim("invitado"));
        }
        catch (Exception e) {
            return false;
        }
    }

    /**
     * Games started for the first time (decisions §24, issue 42): 16 users each making guests in a loop at
     * {@code POST /oauth/invitado.php} with the public client {@code bench-launcher} and {@code openid profile}: one new
     * account, its authorization, an access and a refresh token and an RS256 id_token a call; the id_token checked as
     * a game checks it. Keycloak has no equivalent (no anonymous account made by one call of a public client). The
     * shipped limit of 10 guests an hour per address is raised by .ci/bench-server: all of them come from 127.0.0.1.
     */
    ScenarioBuilder guests = scenario("guests")
            .during(Duration.ofSeconds(SECONDS)).on(
                    exec(http("guests").post("/oauth/invitado.php")
                            .formParam("client_id", LAUNCHER_ID)
                            .formParam("scope", "openid profile")
                            .check(status().is(200), jsonPath("$.refresh_token").exists(),
                                    jsonPath("$.id_token").transform(this::verifyGuest).is(true))));

    ScenarioBuilder ssoCode = scenario("sso-code")
            .feed(userFeeder())
            .exec(http("sso login page").get("/login/").check(css("input[name=_csrf]", "value").saveAs("csrf")))
            .exec(http("sso login").post("/login/").formParam("username", "#{username}").formParam("password", PASSWORD)
                    .formParam("_csrf", "#{csrf}").check(status().is(302)))
            .during(Duration.ofSeconds(SECONDS)).on(
                    group("sso-code").on(
                            exec(session -> session.set("nonce", UUID.randomUUID().toString()))
                                    .exec(http("sso authorize").get(session -> authorizePath(session.getString("nonce")))
                                            .check(status().is(302), header("Location").saveAs("location")))
                                    .exec(codeForToken)));

    ScenarioBuilder passwordLogin = scenario("password-login")
            .feed(userFeeder())
            .during(Duration.ofSeconds(SECONDS)).on(
                    group("password-login").on(
                            exec(flushCookieJar())
                                    .exec(session -> session.set("nonce", UUID.randomUUID().toString()))
                                    .exec(http("pl authorize").get(session -> authorizePath(session.getString("nonce")))
                                            .check(status().is(302), header("Location").saveAs("loginUrl")))
                                    .exec(http("pl login page").get("#{loginUrl}")
                                            .check(status().is(200), css("input[name=_csrf]", "value").saveAs("csrf"),
                                                    css("input[name=redirect]", "value").saveAs("back")))
                                    .exec(http("pl login").post("/login/").formParam("username", "#{username}")
                                            .formParam("password", PASSWORD).formParam("_csrf", "#{csrf}")
                                            .formParam("redirect", "#{back}")
                                            .check(status().is(302), header("Location").saveAs("backTo")))
                                    .exec(http("pl authorize again").get("#{backTo}")
                                            .check(status().is(302), header("Location").saveAs("location")))
                                    .exec(codeForToken)));

    /**
     * Every scenario, one after the other, in this order; {@code bench.scenarios} (comma-separated names, e.g.
     * {@code sso-code} for a profile of the code flow alone, {@code .ci/profile}) runs only those, in the same order.
     */
    {
        Map<String, PopulationBuilder> all = new LinkedHashMap<>();
        all.put("userinfo", userinfo.injectOpen(atOnceUsers(16)));
        all.put("dpop-userinfo", dpopUserinfo.injectOpen(atOnceUsers(16)));
        all.put("oidc-userinfo", oidcUserinfo.injectOpen(atOnceUsers(16)));
        all.put("sso-code", ssoCode.injectOpen(atOnceUsers(16)));
        all.put("password-login", passwordLogin.injectOpen(atOnceUsers(8)));
        all.put("refresh", refresh.injectOpen(atOnceUsers(16)));
        all.put("client-credentials", clientCredentials.injectOpen(atOnceUsers(16)));
        all.put("tickets", tickets.injectOpen(atOnceUsers(16)));
        all.put("guests", guests.injectOpen(atOnceUsers(16)));
        List<String> only = Stream.of(System.getProperty("bench.scenarios", "").split(",")).map(String::trim)
                .filter(name -> !name.isEmpty()).toList();
        if (!all.keySet().containsAll(only)) {
            throw new IllegalArgumentException("bench.scenarios: unknown " + only + "; known " + all.keySet());
        }
        List<PopulationBuilder> runs = all.entrySet().stream().filter(e -> only.isEmpty() || only.contains(e.getKey()))
                .map(Map.Entry::getValue).toList();
        PopulationBuilder chain = runs.get(runs.size() - 1);
        for (int i = runs.size() - 2; i >= 0; i--) {
            chain = runs.get(i).andThen(chain);
        }
        setUp(chain).protocols(protocol).assertions(global().failedRequests().count().is(0L));
    }

    // ---- set-up over plain HTTP, before the load ----

    static JWKSet fetchJwks() {
        try {
            return JWKSet.parse(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(BASE + "/oauth/jwks.json"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body());
        }
        catch (Exception e) {
            throw new IllegalStateException("cannot read the JWKS at " + BASE, e);
        }
    }

    /**
     * A benchmark user's access token, and the DPoP key it is bound to (null for a Bearer token): its proofs are made
     * with the Nimbus SDK's proof factory, as a Java launcher makes them.
     */
    record PlayerToken(String value, DefaultDPoPProofFactory proofs) {

        String proof(String method, String url) {
            try {
                return proofs.createDPoPJWT(method, URI.create(url), new DPoPAccessToken(value)).serialize();
            }
            catch (JOSEException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Access tokens through real logins and code flows, one per benchmark user; with {@code dpop}, each code exchange
     * carries a proof of a new EC key of that user's, so the token is bound to it.
     */
    static List<PlayerToken> obtainAccessTokens(int count, boolean dpop) {
        List<PlayerToken> tokens = new ArrayList<>();
        Pattern csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
        Pattern accessToken = Pattern.compile("\"access_token\":\"([0-9a-f]{64})\"");
        try {
            for (int i = 1; i <= count; i++) {
                var http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                        .followRedirects(HttpClient.Redirect.NEVER).build();
                Matcher m = csrf.matcher(get(http, "/login/").body());
                m.find();
                post(http, "/login/", "username=" + URLEncoder.encode("bench%03d@example.com".formatted(i), StandardCharsets.UTF_8)
                        + "&password=" + PASSWORD + "&_csrf=" + URLEncoder.encode(m.group(1), StandardCharsets.UTF_8));
                String location = get(http, authorizePath("setup")).headers().firstValue("Location").orElseThrow();
                Matcher code = CODE.matcher(location);
                code.find();
                DefaultDPoPProofFactory proofs = dpop
                        ? new DefaultDPoPProofFactory(new ECKeyGenerator(Curve.P_256).generate(), JWSAlgorithm.ES256) : null;
                var request = HttpRequest.newBuilder(URI.create(BASE + "/oauth/token.php"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("grant_type=authorization_code&code=" + code.group(1)
                                + "&redirect_uri=" + URLEncoder.encode(REDIRECT_URI, StandardCharsets.UTF_8)
                                + "&client_id=" + CLIENT_ID + "&client_secret=" + CLIENT_SECRET));
                if (proofs != null) {
                    request.header("DPoP", proofs.createDPoPJWT("POST", URI.create(BASE + "/oauth/token.php")).serialize());
                }
                var response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
                Matcher token = accessToken.matcher(response.body());
                if (!token.find() || (dpop && !response.body().contains("\"token_type\":\"DPoP\""))) {
                    throw new IllegalStateException("no access token for bench user " + i + ": " + response.statusCode());
                }
                tokens.add(new PlayerToken(token.group(1), proofs));
            }
            return tokens;
        }
        catch (Exception e) {
            throw new IllegalStateException("cannot obtain the benchmark's access tokens from " + BASE, e);
        }
    }

    static HttpResponse<String> get(HttpClient http, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(BASE + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(HttpClient http, String path, String form) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(BASE + path)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
