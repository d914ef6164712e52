package com.example.identity.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Where a receiver may not be (decisions D36, D43): the URL's host at registration, each address at delivery. */
class ReceiverAddressesTest {

    @ParameterizedTest
    @ValueSource(strings = { "169.254.169.254", "169.254.0.1", "10.0.0.1", "10.255.255.255", "192.168.0.1",
            "192.168.255.255", "172.16.0.1", "172.31.255.255", "100.64.0.1", "100.127.255.255", "127.0.0.1", "127.9.9.9",
            "0.0.0.0", "0.1.2.3", "192.0.0.8", "198.18.0.1", "198.19.255.255", "224.0.0.1", "239.1.1.1", "240.0.0.1",
            "255.255.255.255", "::", "::1", "fd00::1", "fc00::1", "fdff:ffff::1", "fe80::1", "febf::1", "fec0::1",
            "ff02::1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::10.0.0.1", "64:ff9b::a9fe:a9fe",
            "64:ff9b::7f00:1", "2002:c0a8:0101::1", "2002:0a00:0001::1", "2001:0:4136:e378::1" })
    void refusedAtDelivery(String literal) throws Exception {
        assertThat(ReceiverAddresses.refused(InetAddress.getByName(literal), false)).as(literal).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = { "203.0.113.7", "8.8.8.8", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1",
            "169.253.255.255", "192.167.1.1", "11.0.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.255",
            "2001:db8::1", "2606:4700::1111", "64:ff9b::808:808", "2002:0808:0808::1", "fbff::1" })
    void publicAddressesAreAccepted(String literal) throws Exception {
        assertThat(ReceiverAddresses.refused(InetAddress.getByName(literal), false)).as(literal).isFalse();
    }

    @Test
    void theLoopbackOnlyWhenAllowed() throws Exception {
        for (String loopback : new String[] { "127.0.0.1", "127.0.0.2", "::1" }) {
            assertThat(ReceiverAddresses.refused(InetAddress.getByName(loopback), false)).isTrue();
            assertThat(ReceiverAddresses.refused(InetAddress.getByName(loopback), true)).isFalse();
        }
        // the rest of the rule holds whatever the setting says
        assertThat(ReceiverAddresses.refused(InetAddress.getByName("10.0.0.1"), true)).isTrue();
        assertThat(ReceiverAddresses.refused(InetAddress.getByName("::ffff:127.0.0.1"), true)).isFalse();
        assertThat(ReceiverAddresses.refusedHost("127.0.0.1", true)).isFalse();
        assertThat(ReceiverAddresses.refusedHost("localhost", true)).isFalse();
        assertThat(ReceiverAddresses.refusedHost("[::1]", true)).isFalse();
        assertThat(ReceiverAddresses.refusedHost("127.0.0.1", false)).isTrue();
        assertThat(ReceiverAddresses.refusedHost("localhost", false)).isTrue();
        assertThat(ReceiverAddresses.refusedHost("[::1]", false)).isTrue();
        assertThat(ReceiverAddresses.refusedHost("192.168.1.1", true)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = { "169.254.169.254", "10.0.0.1", "192.168.0.1", "172.16.0.1", "100.64.0.1", "[fd00::1]",
            "[fe80::1]", "[::ffff:10.0.0.1]", "0x7f000001", "2130706433", "0177.0.0.1", "10.1", "localhost",
            "LocalHost", "localhost.", "api.localhost", "api.localhost.", "0.0.0.0", "[::]" })
    void refusedAtRegistration(String host) {
        assertThat(ReceiverAddresses.refusedHost(host, false)).as(host).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = { "juego.example", "juego.example.", "203.0.113.7", "[2001:db8::1]", "xn--jueg-txa.example",
            "localhost.example" })
    void namesAndPublicLiteralsAreAcceptedAtRegistration(String host) {
        assertThat(ReceiverAddresses.refusedHost(host, false)).as(host).isFalse();
    }
}
