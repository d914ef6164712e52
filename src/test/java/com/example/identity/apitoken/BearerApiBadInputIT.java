package com.example.identity.apitoken;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.support.ApiAssertions;
import com.example.identity.support.IntegrationTest;
import com.example.identity.support.RawHttp;
import com.example.identity.support.WebClient;

import tools.jackson.databind.JsonNode;

/**
 * Hostile and random {@code Authorization} headers and bodies against the bearer API: always a 4xx in
 * the endpoint's own JSON shape {@code {"ok":false,"error":...}}, never a 5xx, a stack trace or a page.
 * A fixed seed keeps the run repeatable; 300 generated cases plus the known nasty ones. Half of the
 * requests to {@code /api/tokens/create.php} carry a developer's session and CSRF token, so they get past
 * the session gate and their hostile bodies reach the name parser.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BearerApiBadInputIT {

    @LocalServerPort
    int port;

    /** {@code Cookie} and {@code X-CSRF-TOKEN} header lines of a logged-in developer. */
    byte[] session;

    @BeforeAll
    void logIn() {
        var web = new WebClient(port);
        assertThat(web.login("dev@example.com", "dev-demo-password").statusCode()).isEqualTo(302);
        String csrf = web.csrfFrom("/dashboard/developer.php");
        session = ("Cookie: JSESSIONID=" + web.sessionId().orElseThrow() + "\r\nX-CSRF-TOKEN: " + csrf + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Bodies the name parser must refuse, each with the error it must give. */
    static final List<HostileBody> HOSTILE_BODIES = List.of(
            new HostileBody("application/x-www-form-urlencoded", "name=a%00b".getBytes(StandardCharsets.ISO_8859_1),
                    "name inválido"),
            // Tomcat refuses a body it cannot decode before any parser: the error dispatch's 400, in the API's shape
            new HostileBody("application/x-www-form-urlencoded", "name=%zz%".getBytes(StandardCharsets.ISO_8859_1),
                    "Solicitud inválida"),
            new HostileBody("application/json", "{\"name\":\"x\"}".getBytes(StandardCharsets.ISO_8859_1),
                    "Falta el parámetro name"),
            // over the 64 KB form limit: refused whole (413), before any parser
            new HostileBody("application/x-www-form-urlencoded",
                    ("name=" + "x".repeat(3_000_000)).getBytes(StandardCharsets.ISO_8859_1), "Solicitud inválida"),
            new HostileBody("application/x-www-form-urlencoded", ("name=" + "n".repeat(101)).getBytes(StandardCharsets.ISO_8859_1),
                    "name demasiado largo"),
            new HostileBody("application/x-www-form-urlencoded", "name=x&name=y".getBytes(StandardCharsets.ISO_8859_1),
                    "Parámetro repetido: name"),
            new HostileBody("application/x-www-form-urlencoded", "name=x&scope=todo".getBytes(StandardCharsets.ISO_8859_1),
                    "scope inválido"));

    record HostileBody(String contentType, byte[] body, String error) {
    }

    static Stream<Arguments> hostileAuthorizationHeaders() {
        List<Arguments> cases = new ArrayList<>();
        String[] fixed = { "", "Bearer", "Bearer ", "Bearer  ", "Bearer " + "a".repeat(10_240), "Bearer ñandú",
                "Bearer \u00ff\u00fe", "Bearer \t" + "0".repeat(64), "Bearer " + "0".repeat(63), "Bearer " + "G".repeat(64),
                "Bearer " + "A".repeat(64), "Bearer '; drop table api_tokens; --", "Bearer %00", "Bearer \u0001\u0002",
                "Bearer \u007f", "Basic Og==", "Bearer" + "0".repeat(64), "Token abc", "Bearer\u00a0abc",
                "Bearer " + "0".repeat(64) + " extra" };
        for (String value : fixed) {
            cases.add(Arguments.of("fixed-" + cases.size(), value.getBytes(StandardCharsets.ISO_8859_1.newEncoder().canEncode(value)
                    ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8)));
        }
        Random random = new Random(20261122L);
        for (int i = 0; i < 300; i++) {
            int length = random.nextInt(i % 10 == 0 ? 4000 : 90);
            byte[] value = new byte[length + 7];
            System.arraycopy("Bearer ".getBytes(StandardCharsets.ISO_8859_1), 0, value, 0, 7);
            for (int j = 7; j < value.length; j++) {
                int b;
                do {
                    b = random.nextInt(256);
                } while (b == '\r' || b == '\n');
                value[j] = (byte) b;
            }
            cases.add(Arguments.of("random-" + i, value));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileAuthorizationHeaders")
    void userinfoAnswersEveryHostileHeaderWithJson4xx(String label, byte[] value) {
        byte[] header = concat("Authorization: ".getBytes(StandardCharsets.ISO_8859_1), value, new byte[] { '\r', '\n' });
        var response = RawHttp.send(port, RawHttp.request("GET", "/api/userinfo.php", header, null));

        assertApiShape(response);
    }

    /**
     * Without a session: the 401 gate (or the bearer filter's refusal). With one (every second case): a
     * bearer-shaped header is still refused by the bearer filter, and any other header lets the hostile
     * body through to the name parser, which refuses it with its own error.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileAuthorizationHeaders")
    void createAnswersEveryHostileHeaderWithJson4xx(String label, byte[] value) {
        int index = Integer.parseInt(label.substring(label.indexOf('-') + 1));
        boolean withSession = index % 2 == 1;
        // every hostile body but the 3 MB one, which a refusal before the body is read cuts short
        List<HostileBody> bodies = HOSTILE_BODIES.stream().filter(b -> b.body().length < 100_000).toList();
        HostileBody hostile = withSession ? bodies.get(index / 2 % bodies.size())
                : new HostileBody("application/x-www-form-urlencoded", "name=x".getBytes(StandardCharsets.ISO_8859_1),
                        null);
        byte[] header = concat("Authorization: ".getBytes(StandardCharsets.ISO_8859_1), value,
                ("\r\nContent-Type: " + hostile.contentType() + "\r\n").getBytes(StandardCharsets.ISO_8859_1),
                withSession ? session : new byte[0]);
        var response = RawHttp.send(port, RawHttp.request("POST", "/api/tokens/create.php", header, hostile.body()));

        assertApiShape(response);
        String error = ApiAssertions.JSON.readTree(response.body()).get("error").asString();
        if (!withSession) {
            assertThat(error).isIn("Sesión no iniciada", "Token inválido o revocado", "Solicitud inválida");
        }
        else if (isPrintableAscii(value)) {
            // the header reaches the application as sent (trimmed): a bearer token is refused by the bearer
            // filter, anything else leaves the session in charge and the body reaches the parsers
            assertThat(error).as(label).isEqualTo(isBearer(trim(value)) ? "Token inválido o revocado" : hostile.error());
        }
        else {
            // control characters or raw non-ASCII: Tomcat may refuse the request (the error dispatch's 400)
            assertThat(error).as(label).isIn(hostile.error(), "Token inválido o revocado", "Solicitud inválida");
        }
    }

    static byte[] trim(byte[] value) {
        return new String(value, StandardCharsets.ISO_8859_1).strip().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Whether the bearer filter takes this header for a bearer token ({@code Bearer } in any case). */
    static boolean isBearer(byte[] value) {
        return value.length >= 7 && new String(value, 0, 7, StandardCharsets.ISO_8859_1).equalsIgnoreCase("Bearer ");
    }

    /** Printable ASCII and tabs only: a header value that reaches the application as sent. */
    static boolean isPrintableAscii(byte[] value) {
        for (byte b : value) {
            if ((b < 0x20 && b != '\t') || b == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** Every hostile body with a valid session and CSRF token: the name parser's exact answer. */
    @Test
    void createWithASessionAnswersEveryHostileBodyWithTheNameParsersError() {
        for (HostileBody hostile : HOSTILE_BODIES) {
            byte[] headers = concat(("Content-Type: " + hostile.contentType() + "\r\n").getBytes(StandardCharsets.ISO_8859_1),
                    session);
            var response = RawHttp.send(port, RawHttp.request("POST", "/api/tokens/create.php", headers, hostile.body()));

            assertApiShape(response);
            assertThat(response.status()).isEqualTo(hostile.body().length > 100_000 ? 413 : 400);
            assertThat(ApiAssertions.JSON.readTree(response.body()).get("error").asString())
                    .as(new String(hostile.body(), 0, Math.min(40, hostile.body().length), StandardCharsets.ISO_8859_1))
                    .isEqualTo(hostile.error());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("duplicateAndOddRequests")
    void oddRequestsAnswerJson4xx(String label, byte[] request) {
        assertApiShape(RawHttp.send(port, request));
    }

    static Stream<Arguments> duplicateAndOddRequests() {
        String token = "0".repeat(64);
        return Stream.of(
                Arguments.of("two Authorization headers", RawHttp.request("GET", "/api/userinfo.php",
                        ("Authorization: Bearer " + token + "\r\nAuthorization: Bearer " + token + "\r\n").getBytes(), null)),
                Arguments.of("bad percent-encoding in query", RawHttp.request("GET", "/api/userinfo.php?x=%zz", new byte[0], null)),
                Arguments.of("bad percent-encoding in body", RawHttp.request("POST", "/api/tokens/create.php",
                        "Content-Type: application/x-www-form-urlencoded\r\n".getBytes(), "name=%zz%".getBytes())),
                Arguments.of("NUL in body", RawHttp.request("POST", "/api/tokens/create.php",
                        "Content-Type: application/x-www-form-urlencoded\r\n".getBytes(), "name=a%00b".getBytes())),
                Arguments.of("json body", RawHttp.request("POST", "/api/tokens/create.php",
                        "Content-Type: application/json\r\n".getBytes(), "{\"name\":\"x\"}".getBytes())),
                Arguments.of("huge form body", RawHttp.request("POST", "/api/tokens/create.php",
                        "Content-Type: application/x-www-form-urlencoded\r\n".getBytes(),
                        ("name=" + "x".repeat(3_000_000)).getBytes())));
    }

    static void assertApiShape(RawHttp.Response response) {
        assertThat(response.status()).as(response.body()).isBetween(400, 499);
        assertThat(response.headers().get("content-type")).isEqualTo("application/json;charset=UTF-8");
        JsonNode body = ApiAssertions.JSON.readTree(response.body());
        assertThat(body.get("ok").asBoolean(true)).isFalse();
        assertThat(body.get("error").isString()).isTrue();
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("at com.").doesNotContain("Tomcat");
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int i = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, i, p.length);
            i += p.length;
        }
        return out;
    }
}
