package com.example.identity.outbound;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;

/**
 * Where an application's receiver ({@code webhook_url}, {@code backchannel_logout_uri}) may not be: this machine and
 * the networks around it, so that nobody can make the service POST into its own network (server-side request
 * forgery; decisions D36, D43). The same rule at registration, on the URL's host ({@link #refusedHost}), and at
 * each delivery, on every address its name resolves to then ({@link #refused}).
 * <p>
 * Refused: 0.0.0.0/8, 10/8, 100.64/10 (shared, CGNAT), 127/8, 169.254/16 (link-local, cloud metadata), 172.16/12,
 * 192.0.0/24, 192.168/16, 198.18/15, 224/4 (multicast), 240/4 (reserved, broadcast); ::, ::1, the IPv4-compatible
 * ::/96, fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10, ff00::/8 (multicast), Teredo 2001::/32, and the
 * IPv4 address inside an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address when it is refused itself.
 * This machine's loopback (127/8, ::1, the name {@code localhost}) only when the operator allows it
 * ({@code identity.outbound.allow-loopback}, tests and local development).
 */
public final class ReceiverAddresses {

    /** The loopback hosts a receiver may name when the operator allows the loopback. */
    public static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");

    private ReceiverAddresses() {
    }

    /**
     * Whether a receiver's URL may not name {@code host} (as {@link java.net.URI#getHost} gives it: an IPv6 literal in
     * brackets). Names are not resolved here (a name can change what it points to: each delivery checks what it
     * resolves to), except {@code localhost} and its subdomains. A host whose last label starts with a digit or
     * {@code 0x} (no top-level domain does) must be a dotted IPv4 address: the shorter and hexadecimal forms resolvers
     * also read as addresses ({@code 127.1}, {@code 0x7f000001}, {@code 2130706433}) are refused.
     */
    public static boolean refusedHost(String host, boolean allowLoopback) {
        String h = host.toLowerCase(Locale.ROOT);
        while (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1); // "localhost." is localhost
        }
        if (allowLoopback && LOOPBACK_HOSTS.contains(h)) {
            return false;
        }
        if (h.isEmpty() || h.equals("localhost") || h.endsWith(".localhost")) {
            return true;
        }
        boolean v6 = h.startsWith("[") && h.endsWith("]");
        String last = h.substring(h.lastIndexOf('.') + 1);
        if (!v6 && !last.matches("(0x|[0-9]).*")) {
            return false; // a name: checked when it is resolved, at each delivery
        }
        if (!v6 && !h.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
            return true;
        }
        try {
            // a literal: parsed, no lookup happens
            return refused(InetAddress.getByName(v6 ? h.substring(1, h.length() - 1) : h), false);
        }
        catch (UnknownHostException e) {
            return true; // not a usable literal
        }
    }

    /** Whether the service must not connect to {@code address} for a delivery. */
    public static boolean refused(InetAddress address, boolean allowLoopback) {
        if (address.isLoopbackAddress()) {
            return !allowLoopback;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return refusedV4(b, 0);
        }
        if (!(address instanceof Inet6Address)) {
            return true;
        }
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if (address.isAnyLocalAddress() || address.isLinkLocalAddress() || address.isSiteLocalAddress()
                || address.isMulticastAddress() || (first & 0xfe) == 0xfc) {
            return true; // ::, fe80::/10, fec0::/10, ff00::/8, fc00::/7
        }
        if (zeros(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return refusedV4(b, 12); // ::ffff:a.b.c.d
        }
        if (zeros(b, 0, 12)) {
            return true; // ::a.b.c.d, deprecated
        }
        if (first == 0x00 && second == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b && zeros(b, 4, 12)) {
            return refusedV4(b, 12); // 64:ff9b::a.b.c.d, NAT64
        }
        if (first == 0x20 && second == 0x02) {
            return refusedV4(b, 2); // 2002:aabb:ccdd::, 6to4
        }
        return first == 0x20 && second == 0x01 && b[2] == 0 && b[3] == 0; // 2001::/32, Teredo
    }

    private static boolean refusedV4(byte[] b, int at) {
        int a = b[at] & 0xff;
        int c = b[at + 1] & 0xff;
        int d = b[at + 2] & 0xff;
        return a == 0 || a == 10 || a == 127 || a >= 224 // this network, private, loopback, multicast, reserved
                || (a == 100 && (c & 0xc0) == 64) // 100.64.0.0/10, shared address space (CGNAT)
                || (a == 169 && c == 254) // link-local, cloud metadata
                || (a == 172 && (c & 0xf0) == 16) // 172.16.0.0/12
                || (a == 192 && c == 168) // 192.168.0.0/16
                || (a == 192 && c == 0 && d == 0) // 192.0.0.0/24, IETF protocol assignments
                || (a == 198 && (c & 0xfe) == 18); // 198.18.0.0/15, benchmarking
    }

    private static boolean zeros(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
