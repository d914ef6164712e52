package com.example.identity.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.example.identity.support.IntegrationTest;
import com.example.identity.support.RawHttp;

import tools.jackson.databind.JsonNode;

/**
 * Hostile and random {@code Authorization} headers and bodies against the bearer API: always a 4xx in
 * the endpoint's own JSON shape {@code {"ok":false,"error":...}}, never a 5xx, a stack trace or a page.
 * A fixed seed keeps the run repeatable; 300 generated cases plus the known nasty ones.
 */
@IntegrationTest
class BearerApiBadInputIT {

    @LocalServerPort
    int port;

    static Stream<Arguments> hostileAuthorizationHeaders() {
        List<Arguments> cases = new ArrayList<>();
        String[] fixed = { "", "Bearer", "Bearer ", "Bearer  ", "Bearer " + "a".repeat(10_240), "Bearer ñandú",
                "Bearer \u00ff\u00fe", "Bearer \t" + "0".repeat(64), "Bearer " + "0".repeat(63), "Bearer " + "G".repeat(64),
                "Bearer " + "A".repeat(64), "Bearer '; drop table api_tokens; --", "Bearer %00", "Bearer \u0001\u0002",
                "Bearer \u007f", "Basic Og==", "Bearer" + "0".repeat(64), "Token abc", "Bearer\u00a0abc",
                "Bearer " + "0".repeat(64) + " extra" };
        for (String value : fixed) {
            cases.add(Arguments.of("fixed", value.getBytes(StandardCharsets.ISO_8859_1.newEncoder().canEncode(value)
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileAuthorizationHeaders")
    void createAnswersEveryHostileHeaderWithJson4xx(String label, byte[] value) {
        byte[] header = concat("Authorization: ".getBytes(StandardCharsets.ISO_8859_1), value,
                "\r\nContent-Type: application/x-www-form-urlencoded\r\n".getBytes(StandardCharsets.ISO_8859_1));
        var response = RawHttp.send(port, RawHttp.request("POST", "/api/tokens/create.php", header,
                "name=x".getBytes(StandardCharsets.ISO_8859_1)));

        assertApiShape(response);
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
        JsonNode body = com.example.identity.support.ApiAssertions.JSON.readTree(response.body());
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
