package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import com.example.identity.IdentityApplication;
import com.example.identity.support.ApiAssertions;
import com.example.identity.support.RawHttp;
import com.example.identity.support.WebClient;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import tools.jackson.databind.JsonNode;

/**
 * Thousands of random and hostile requests (jqwik) to the four documented endpoints: never a 5xx, and
 * always the endpoint's own shape ({@code {"error"}} for the token endpoint, {@code {"ok":false,"error"}}
 * for the API, a Spanish page or a redirect for the authorization endpoint). The application runs in its
 * own in-memory database; every request goes to 127.0.0.1 and each property has a fixed number of tries.
 */
class HostileInputPropertiesIT {

    static ConfigurableApplicationContext app;
    static int port;
    /** {@code Cookie} and {@code X-CSRF-TOKEN} header lines of a logged-in developer. */
    static byte[] session;

    @BeforeContainer
    static void start() {
        app = new SpringApplicationBuilder(IdentityApplication.class).run("--server.port=0", "--spring.profiles.active=test",
                "--spring.datasource.url=jdbc:h2:mem:fuzz-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "--logging.level.root=ERROR");
        port = ((WebServerApplicationContext) app).getWebServer().getPort();
        var web = new WebClient(port);
        assertThat(web.login("dev@example.com", "dev-demo-password").statusCode()).isEqualTo(302);
        session = ("Cookie: JSESSIONID=" + web.sessionId().orElseThrow() + "\r\nX-CSRF-TOKEN: "
                + web.csrfFrom("/dashboard/developer.php") + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    @AfterContainer
    static void stop() {
        app.close();
    }

    static final List<String> NAMES = List.of("grant_type", "code", "redirect_uri", "client_id", "client_secret",
            "code_verifier", "response_type", "scope", "state", "nonce", "code_challenge", "code_challenge_method", "name",
            "_csrf", "x");

    @Provide
    Arbitrary<String> hostileValues() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(200),
                Arbitraries.strings().withChars("%&=+;#?/\\\u0000\r\n\t\"'<>{}").ofMaxLength(40),
                Arbitraries.of("authorization_code", "demo-app", "demo-app-secret", "http://localhost:9000/callback",
                        "code", "openid email profile", "S256", "plain", "%zz", "%", "%00", "a%ZZb", "\u00ff\u00fe",
                        "x".repeat(5000)));
    }

    @Provide
    Arbitrary<String> forms() {
        var pair = Combinators.combine(Arbitraries.of(NAMES), hostileValues(), Arbitraries.of(true, false))
                .as((name, value, encode) -> name + "=" + (encode
                        ? URLEncoder.encode(value, StandardCharsets.UTF_8) : value.replace("&", "")));
        return pair.list().ofMaxSize(8).map(list -> String.join("&", list));
    }

    /**
     * Query strings as a request line may carry them: values percent-encoded (with deliberately broken
     * escapes such as {@code %zz} mixed in). Raw control characters in the request line are Tomcat's to
     * refuse before any application code runs, so they are left to the header and body properties.
     */
    @Provide
    Arbitrary<String> queries() {
        var pair = Combinators.combine(Arbitraries.of(NAMES), hostileValues(), Arbitraries.of(true, false))
                .as((name, value, broken) -> name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)
                        + (broken ? "%zz%" : ""));
        return pair.list().ofMaxSize(8).map(list -> String.join("&", list));
    }

    @Provide
    Arbitrary<String> contentTypes() {
        return Arbitraries.of("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=ISO-8859-1",
                "application/json", "text/plain", "multipart/form-data; boundary=x", "", "application/x-www-form-urlencoded; charset=bogus");
    }

    @Provide
    Arbitrary<byte[]> authorizationHeaders() {
        return Arbitraries.oneOf(
                hostileValues().map(v -> ("Bearer " + v).getBytes(StandardCharsets.UTF_8)),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300),
                Arbitraries.strings().withCharRange('0', 'f').ofLength(64).map(v -> ("Bearer " + v).getBytes(StandardCharsets.US_ASCII)));
    }

    static byte[] headerLine(String name, byte[] value) {
        byte[] clean = new byte[value.length];
        for (int i = 0; i < value.length; i++) {
            clean[i] = value[i] == '\r' || value[i] == '\n' ? (byte) ' ' : value[i];
        }
        byte[] prefix = (name + ": ").getBytes(StandardCharsets.ISO_8859_1);
        byte[] line = new byte[prefix.length + clean.length + 2];
        System.arraycopy(prefix, 0, line, 0, prefix.length);
        System.arraycopy(clean, 0, line, prefix.length, clean.length);
        line[line.length - 2] = '\r';
        line[line.length - 1] = '\n';
        return line;
    }

    static JsonNode jsonBody(RawHttp.Response response) {
        assertThat(response.headers().get("content-type")).as(response.body()).isEqualTo("application/json;charset=UTF-8");
        return ApiAssertions.JSON.readTree(response.body());
    }

    @Property(tries = 700)
    void tokenEndpointAnswersHostileFormsIn4xxJson(@ForAll("forms") String body, @ForAll("contentTypes") String contentType) {
        var response = RawHttp.send(port, RawHttp.request("POST", "/oauth/token.php",
                headerLine("Content-Type", contentType.getBytes(StandardCharsets.ISO_8859_1)),
                body.getBytes(StandardCharsets.UTF_8)));
        assertThat(response.status()).as(body).isBetween(400, 499);
        JsonNode json = jsonBody(response);
        assertThat(json.get("error").isString()).isTrue();
        assertThat(response.headers().get("cache-control")).isEqualTo("no-store");
    }

    @Property(tries = 700)
    void authorizationEndpointAnswersHostileQueriesWithAPageOrARedirect(@ForAll("queries") String query) {
        var response = RawHttp.send(port, RawHttp.request("GET", "/oauth/authorize.php?" + query, new byte[0], null));
        assertThat(response.status()).as(query).isLessThan(500);
        if (response.status() >= 400) {
            assertThat(response.headers().get("content-type")).isEqualTo("text/html;charset=UTF-8");
            assertThat(response.body()).contains("lang=\"es\"");
        }
        else {
            assertThat(response.status()).isEqualTo(302);
            assertThat(response.headers().get("location")).doesNotStartWith("//");
        }
    }

    @Property(tries = 700)
    void userinfoAnswersHostileHeadersIn4xxJson(@ForAll("authorizationHeaders") byte[] value) {
        var response = RawHttp.send(port, RawHttp.request("GET", "/api/userinfo.php", headerLine("Authorization", value), null));
        assertThat(response.status()).isBetween(400, 499);
        JsonNode json = jsonBody(response);
        assertThat(json.get("ok").asBoolean(true)).isFalse();
        assertThat(json.get("error").isString()).isTrue();
    }

    /**
     * Half the tries carry a developer's session and CSRF token, so the hostile forms reach the name and
     * scope parsers: the answer is then a token, when the form happens to hold one good name, or the
     * parsers' 4xx, never the session gate's. Without a session, the gate's or the bearer filter's 401.
     */
    @Property(tries = 700)
    void tokenCreationAnswersHostileRequestsIn4xxJson(@ForAll("forms") String body, @ForAll("contentTypes") String contentType,
            @ForAll("authorizationHeaders") byte[] authorization, @ForAll boolean withSession) {
        boolean withAuthorization = body.length() % 2 == 0;
        byte[] headers = concat(concat(headerLine("Content-Type", contentType.getBytes(StandardCharsets.ISO_8859_1)),
                withAuthorization ? headerLine("Authorization", authorization) : new byte[0]),
                withSession ? session : new byte[0]);
        var response = RawHttp.send(port, RawHttp.request("POST", "/api/tokens/create.php", headers,
                body.getBytes(StandardCharsets.UTF_8)));
        JsonNode json = jsonBody(response);
        if (response.status() == 200) {
            assertThat(withSession).as("a token without a session: " + body).isTrue();
            assertThat(response.body()).matches("\\{\"ok\":true,\"token\":\"[0-9a-f]{64}\"}");
            return;
        }
        assertThat(response.status()).as(body).isBetween(400, 499);
        assertThat(json.get("ok").asBoolean(true)).isFalse();
        if (withSession && !withAuthorization) {
            assertThat(json.get("error").asString()).as(body).isNotEqualTo("Sesión no iniciada");
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
