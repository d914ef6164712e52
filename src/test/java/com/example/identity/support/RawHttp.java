package com.example.identity.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sends bytes that a well-behaved HTTP client refuses to send (control characters, raw non-ASCII,
 * duplicate or oversized headers) over a plain socket to 127.0.0.1, and reads the answer. Bounded by
 * a 10-second timeout per request.
 */
public final class RawHttp {

    private RawHttp() {
    }

    public record Response(int status, Map<String, String> headers, String body) {
    }

    public static Response send(int port, byte[] request) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            try {
                socket.getOutputStream().write(request);
                socket.getOutputStream().flush();
            }
            catch (IOException e) {
                // the server answered and closed before the whole body was sent (an early refusal of a
                // large body): its answer is still there to read
            }
            return parse(readAll(socket.getInputStream()));
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A request with {@code Connection: close}; {@code headerLines} are written as given. */
    public static byte[] request(String method, String path, byte[] headerLines, byte[] body) {
        var out = new ByteArrayOutputStream();
        out.writeBytes((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(headerLines);
        if (body != null) {
            out.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            out.writeBytes(body);
        }
        return out.toByteArray();
    }

    private static byte[] readAll(InputStream in) throws IOException {
        var out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) != -1) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static Response parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        String head = end < 0 ? text : text.substring(0, end);
        String body = end < 0 ? "" : text.substring(end + 4);
        String[] lines = head.split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(status, headers, body);
    }

    private static String dechunk(String body) {
        var out = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            int lineEnd = body.indexOf("\r\n", i);
            if (lineEnd < 0) {
                break;
            }
            int size;
            try {
                size = Integer.parseInt(body.substring(i, lineEnd).trim(), 16);
            }
            catch (NumberFormatException e) {
                break;
            }
            if (size == 0) {
                break;
            }
            out.append(body, lineEnd + 2, Math.min(body.length(), lineEnd + 2 + size));
            i = lineEnd + 2 + size + 2;
        }
        return out.toString();
    }
}
