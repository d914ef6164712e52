package com.example.identity.abuse;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The source address a request is counted against, for every limit of the service (rate limits, login
 * throttle). One place, so that every budget keys addresses the same way.
 *
 * <p>{@link HttpServletRequest#getRemoteAddr()} is already the real client here: Tomcat's
 * {@code RemoteIpValve} replaces the peer with the {@code X-Forwarded-For} client only when the peer is one
 * of {@code identity.trusted-proxies} ({@link TrustedProxies}, default none), so a client cannot choose its
 * own address by sending the header. This class only turns the address into a key:
 * <ul>
 * <li>IPv4: the address itself ({@code 203.0.113.7});</li>
 * <li>IPv6: its /64 ({@code 2001:db8:0:1::/64}), since one subscriber usually gets a whole /64 and could
 *     otherwise spend a fresh budget from each of its 2^64 addresses;</li>
 * <li>an IPv4-mapped IPv6 address ({@code ::ffff:192.0.2.1}): the IPv4 address;</li>
 * <li>anything that is not an address literal (a trusted proxy may forward garbage): the text itself,
 *     cut at 64 characters, so it still has a budget of its own and never costs a DNS lookup.</li>
 * </ul>
 */
public final class ClientAddress {

    private static final int MAX_KEY_LENGTH = 64;

    private ClientAddress() {
    }

    /** The key of the request's client address (see the class comment). */
    public static String key(HttpServletRequest request) {
        return key(request.getRemoteAddr());
    }

    /** The key of one address as Tomcat reports it. */
    public static String key(String address) {
        if (address == null || address.isEmpty()) {
            return "unknown";
        }
        if (address.indexOf(':') < 0) {
            return cut(address);
        }
        int[] groups = ipv6Groups(address);
        if (groups == null) {
            return cut(address);
        }
        if (groups[0] == 0 && groups[1] == 0 && groups[2] == 0 && groups[3] == 0 && groups[4] == 0
                && groups[5] == 0xffff) {
            return (groups[6] >> 8) + "." + (groups[6] & 0xff) + "." + (groups[7] >> 8) + "." + (groups[7] & 0xff);
        }
        return Integer.toHexString(groups[0]) + ":" + Integer.toHexString(groups[1]) + ":"
                + Integer.toHexString(groups[2]) + ":" + Integer.toHexString(groups[3]) + "::/64";
    }

    private static String cut(String text) {
        return text.length() <= MAX_KEY_LENGTH ? text : text.substring(0, MAX_KEY_LENGTH);
    }

    /**
     * The eight 16-bit groups of an IPv6 literal ({@code ::} compression, an embedded IPv4 tail, optional
     * brackets and zone id), or null when it is not one. Parsed by hand: {@code InetAddress.getByName}
     * would look up anything it cannot parse as a host name.
     */
    static int[] ipv6Groups(String literal) {
        String text = literal;
        if (text.startsWith("[") && text.endsWith("]")) {
            text = text.substring(1, text.length() - 1);
        }
        int zone = text.indexOf('%');
        if (zone >= 0) {
            text = text.substring(0, zone);
        }
        if (text.length() > 45) {
            return null;
        }
        int compression = text.indexOf("::");
        if (compression >= 0 && text.indexOf("::", compression + 1) >= 0) {
            return null;
        }
        int[] head = compression >= 0 ? parts(text.substring(0, compression)) : parts(text);
        int[] tail = compression >= 0 ? parts(text.substring(compression + 2)) : new int[0];
        if (head == null || tail == null) {
            return null;
        }
        int known = head.length + tail.length;
        if (compression < 0 ? known != 8 : known > 7) {
            return null;
        }
        int[] groups = new int[8];
        System.arraycopy(head, 0, groups, 0, head.length);
        System.arraycopy(tail, 0, groups, 8 - tail.length, tail.length);
        return groups;
    }

    /** Colon-separated groups, the last of which may be a dotted IPv4 address (two groups). */
    private static int[] parts(String text) {
        if (text.isEmpty()) {
            return new int[0];
        }
        String[] pieces = text.split(":", -1);
        int count = pieces.length + (pieces[pieces.length - 1].indexOf('.') >= 0 ? 1 : 0);
        if (count > 8) {
            return null;
        }
        int[] groups = new int[count];
        for (int i = 0; i < pieces.length; i++) {
            String piece = pieces[i];
            if (i == pieces.length - 1 && piece.indexOf('.') >= 0) {
                int[] v4 = ipv4(piece);
                if (v4 == null) {
                    return null;
                }
                groups[i] = v4[0] << 8 | v4[1];
                groups[i + 1] = v4[2] << 8 | v4[3];
                continue;
            }
            if (piece.isEmpty() || piece.length() > 4) {
                return null;
            }
            int value = 0;
            for (int c = 0; c < piece.length(); c++) {
                int digit = Character.digit(piece.charAt(c), 16);
                if (digit < 0) {
                    return null;
                }
                value = value << 4 | digit;
            }
            groups[i] = value;
        }
        return groups;
    }

    private static int[] ipv4(String text) {
        String[] pieces = text.split("\\.", -1);
        if (pieces.length != 4) {
            return null;
        }
        int[] octets = new int[4];
        for (int i = 0; i < 4; i++) {
            String piece = pieces[i];
            if (piece.isEmpty() || piece.length() > 3) {
                return null;
            }
            int value = 0;
            for (int c = 0; c < piece.length(); c++) {
                char ch = piece.charAt(c);
                if (ch < '0' || ch > '9') {
                    return null;
                }
                value = value * 10 + (ch - '0');
            }
            if (value > 255) {
                return null;
            }
            octets[i] = value;
        }
        return octets;
    }
}
