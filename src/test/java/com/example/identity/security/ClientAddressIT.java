package com.example.identity.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import com.example.identity.support.IntegrationTest;
import com.example.identity.support.WebClient;

/**
 * {@code request.getRemoteAddr()} (what every limit and the audit trail see) is the {@code X-Forwarded-For}
 * client only when the request came from a proxy of {@code identity.trusted-proxies}: the test profile
 * trusts {@code 127.0.0.1/32}, so a request over {@code 127.0.0.1} is a trusted proxy's and one over the IPv6
 * loopback {@code [::1]} is an untrusted peer's. Observed through the source address of the audit trail's
 * failed-login lines. (AbuseLimitsIT shows the same with the shipped default, no trusted proxy.)
 */
@IntegrationTest
class ClientAddressIT {

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void forwardedForFromATrustedProxyIsTheClient() {
        assertThat(failedLoginAddress("http://127.0.0.1:" + port, "203.0.113.50")).isEqualTo("203.0.113.50");
        assertThat(failedLoginAddress("http://127.0.0.1:" + port, "198.51.100.7, 127.0.0.1"))
                .as("trusted hops are skipped from the right").isEqualTo("198.51.100.7");
    }

    @Test
    void forwardedForFromAnUntrustedPeerIsIgnored() {
        assertThat(failedLoginAddress("http://[::1]:" + port, "203.0.113.51")).isEqualTo("0:0:0:0:0:0:0:1");
    }

    @Test
    void forwardedProtoFromAnUntrustedPeerIsIgnored() {
        var trusted = new WebClient("http://127.0.0.1:" + port).get("/login/", "X-Forwarded-Proto", "https");
        assertThat(trusted.headers().firstValue("Strict-Transport-Security")).isPresent();
        var untrusted = new WebClient("http://[::1]:" + port).get("/login/", "X-Forwarded-Proto", "https");
        assertThat(untrusted.statusCode()).isEqualTo(200);
        assertThat(untrusted.headers().firstValue("Strict-Transport-Security")).isEmpty();
        assertThat(untrusted.headers().firstValue("Set-Cookie")).isPresent().get().asString().doesNotContain("Secure");
    }

    private String failedLoginAddress(String base, String forwardedFor) {
        String email = "addr-" + UUID.randomUUID() + "@example.com";
        var web = new WebClient(base);
        String csrf = web.csrfFrom("/login/");
        Map<String, String> form = new LinkedHashMap<>();
        form.put("username", email);
        form.put("password", "wrong-password");
        form.put("_csrf", csrf);
        assertThat(web.postForm("/login/", form, "X-Forwarded-For", forwardedFor).statusCode()).isEqualTo(302);
        return jdbc.queryForObject("select address from audit_events where event = 'LOGIN_FAILED' and actor = ?",
                String.class, email);
    }
}
