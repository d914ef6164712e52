package com.example.identity.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.mock.web.MockHttpServletRequest;

class ClientAddressTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "203.0.113.7|203.0.113.7",
            // IPv6: the /64, whatever the spelling
            "2001:db8:0:1:aaaa:bbbb:cccc:dddd|2001:db8:0:1::/64",
            "2001:db8:0:1::1|2001:db8:0:1::/64",
            "2001:0db8:0000:0001:0000:0000:0000:0002|2001:db8:0:1::/64",
            "[2001:db8:0:1::3]|2001:db8:0:1::/64",
            "2001:db8:0:1::4%eth0|2001:db8:0:1::/64",
            "2001:db8:0:2::1|2001:db8:0:2::/64",
            "0:0:0:0:0:0:0:1|0:0:0:0::/64",
            "::1|0:0:0:0::/64",
            "::|0:0:0:0::/64",
            "2001:db8::|2001:db8:0:0::/64",
            "64:ff9b::192.0.2.1|64:ff9b:0:0::/64",
            // IPv4-mapped: the IPv4 address
            "::ffff:192.0.2.1|192.0.2.1",
            "0:0:0:0:0:ffff:c000:0201|192.0.2.1",
            // not literals: the text, never a lookup
            "unknown|unknown",
            "zz::1|zz::1",
            "1:2:3:4:5:6:7:8:9|1:2:3:4:5:6:7:8:9",
            "1::2::3|1::2::3",
            "12345::1|12345::1",
            "::ffff:999.1.1.1|::ffff:999.1.1.1" })
    void keysAnAddress(String address, String key) {
        assertThat(ClientAddress.key(address)).isEqualTo(key);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = { "2001:db8:0:1::a|2001:db8:0:1::b", "2001:db8:0:1:ffff::|2001:db8:0:1::" })
    void addressesOfOneSlash64ShareAKey(String one, String other) {
        assertThat(ClientAddress.key(one)).isEqualTo(ClientAddress.key(other));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = { "198.51.100.1|198.51.100.1", "2001:db8:5::9|2001:db8:5:0::/64" })
    void theRequestsKeyIsItsRemoteAddressesKey(String remote, String key) {
        var request = new MockHttpServletRequest();
        request.setRemoteAddr(remote);
        request.addHeader("X-Forwarded-For", "192.0.2.99");
        assertThat(ClientAddress.key(request)).as("the header is Tomcat's business, never read here").isEqualTo(key);
    }

    @org.junit.jupiter.api.Test
    void longGarbageIsCut() {
        assertThat(ClientAddress.key("x".repeat(500))).hasSize(64);
        assertThat(ClientAddress.key((String) null)).isEqualTo("unknown");
    }
}
