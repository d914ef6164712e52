package com.example.identity.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A receiver that misbehaves, on a plain socket of 127.0.0.1 (the JDK's HTTP server cannot): it reads each request
 * whole, then
 * <ul>
 * <li>{@link Mode#HUNG}: never answers;</li>
 * <li>{@link Mode#SLOW_BODY}: answers {@code 200} with a {@code Content-Length} of a megabyte at once, then trickles
 * the body, a byte every 50 ms (hours);</li>
 * <li>{@link Mode#SLOW_HEADERS}: sends the status line, then its headers a byte every 50 ms, never ending them.</li>
 * </ul>
 * It records each request ({@link #requests}) and, for each connection, the moment the client closed it while the
 * receiver was still waiting or sending ({@link #cut}), as {@link System#nanoTime()}, beside the moment the request
 * was read ({@link #answered}). Every loop is bounded (ten minutes of trickling at most) and ends on {@link #close}.
 */
public final class StubbornReceiver implements AutoCloseable {

    public enum Mode {
        HUNG, SLOW_BODY, SLOW_HEADERS
    }

    /** One request as read: its head (request line and headers) and body. */
    public record Request(String head, String body) {

        /** A header's value (first one), by name in any letter case. */
        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    private static final int TRICKLE_MILLIS = 50;
    private static final int MAX_TRICKLES = 12_000;

    public final int port;
    public final List<Request> requests = new CopyOnWriteArrayList<>();
    /** When each request had been read (and the stubborn part began). */
    public final List<Long> answered = new CopyOnWriteArrayList<>();
    /** When the client cut a connection the receiver was still holding. */
    public final List<Long> cut = new CopyOnWriteArrayList<>();
    public final AtomicInteger connections = new AtomicInteger();
    private final Mode mode;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "stubborn-receiver");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;

    public StubbornReceiver(Mode mode) throws IOException {
        this.mode = mode;
        this.server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        this.port = server.getLocalPort();
        threads.execute(this::accept);
    }

    private void accept() {
        while (!closed) {
            try {
                Socket socket = server.accept();
                connections.incrementAndGet();
                threads.execute(() -> serve(socket));
            }
            catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            requests.add(read(in));
            answered.add(System.nanoTime());
            OutputStream out = socket.getOutputStream();
            switch (mode) {
                case HUNG -> {
                    // the client's close ends the read (-1, or a reset)
                    socket.setSoTimeout(0);
                    try {
                        in.read();
                    }
                    catch (IOException reset) {
                        // cut as well
                    }
                    if (!closed) {
                        cut.add(System.nanoTime());
                    }
                }
                case SLOW_BODY -> trickle(out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1048576\r\n\r\n",
                        "x");
                case SLOW_HEADERS -> trickle(out, "HTTP/1.1 200 OK\r\n", "X-Slow: y\r\n");
            }
        }
        catch (IOException e) {
            // the client went away before the request was read
        }
    }

    /** Sends {@code first} at once, then {@code unit} a byte at a time until the client cuts the connection. */
    private void trickle(OutputStream out, String first, String unit) {
        try {
            out.write(first.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] bytes = unit.getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < MAX_TRICKLES && !closed; i++) {
                out.write(bytes[i % bytes.length]);
                out.flush();
                TimeUnit.MILLISECONDS.sleep(TRICKLE_MILLIS);
            }
        }
        catch (IOException e) {
            if (!closed) {
                cut.add(System.nanoTime());
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Request read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4 && head.size() < 65_536) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before the end of the head");
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        Request partial = new Request(text, "");
        String length = partial.header("Content-Length");
        int n = length == null ? 0 : Integer.parseInt(length.toLowerCase(Locale.ROOT));
        byte[] body = in.readNBytes(Math.min(n, 1_048_576));
        return new Request(text, new String(body, StandardCharsets.UTF_8));
    }

    /** How long the client held connection {@code i}: from its request to its cut, in milliseconds. */
    public long heldMillis(int i) {
        return TimeUnit.NANOSECONDS.toMillis(cut.get(i) - answered.get(i));
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        threads.shutdownNow();
    }
}
