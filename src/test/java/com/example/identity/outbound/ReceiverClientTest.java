package com.example.identity.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.example.identity.support.StubbornReceiver;
import com.sun.net.httpserver.HttpServer;

/**
 * The one client that POSTs to receivers, against receivers of this test on 127.0.0.1: what it sends; a status
 * without its body (a body trickled for hours does not hold it); the deadline on the whole exchange (a receiver that
 * never answers, or trickles its headers, is cut at it); no connection at all to an address a receiver may not have,
 * whether the URL names it or a name resolves to it; and the connection made to the very address checked, the name
 * never resolved a second time. Names are resolved by the test ({@link ReceiverClient.Resolver}), so no lookup leaves
 * the machine.
 */
class ReceiverClientTest {

    static final Duration SHORT = Duration.ofSeconds(1);

    HttpServer healthy;
    final List<String> seen = new CopyOnWriteArrayList<>();
    final AtomicInteger status = new AtomicInteger(204);
    StubbornReceiver stubborn;
    ReceiverClient client;

    @AfterEach
    void stop() throws IOException {
        if (healthy != null) {
            healthy.stop(0);
        }
        if (stubborn != null) {
            stubborn.close();
        }
        if (client != null) {
            client.destroy();
        }
    }

    /** A receiver that keeps what it got (method, Host, Content-Type, a header, the body) and answers {@link #status}. */
    int startHealthy() throws IOException {
        healthy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        healthy.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " Host=" + exchange.getRequestHeaders()
                    .getFirst("Host") + " Content-Type=" + exchange.getRequestHeaders().getFirst("Content-Type") + " X-A="
                    + exchange.getRequestHeaders().getFirst("X-A") + " body=" + body);
            exchange.sendResponseHeaders(status.get(), -1);
            exchange.close();
        });
        healthy.start();
        return healthy.getAddress().getPort();
    }

    static ReceiverClient client(Duration timeout, boolean allowLoopback, ReceiverClient.Resolver resolver) {
        return new ReceiverClient(new OutboundSettings(timeout, allowLoopback), resolver);
    }

    static ReceiverClient.Resolver system() {
        return InetAddress::getAllByName;
    }

    @Test
    void postsTheBodyWithItsHeadersAndReturnsTheStatus() throws Exception {
        int port = startHealthy();
        client = client(SHORT, true, system());

        assertThat(client.post("http://127.0.0.1:" + port + "/hook?a=1", "application/json", Map.of("X-A", "b"),
                "{\"ñ\":1}")).isEqualTo(204);

        assertThat(seen).containsExactly("POST /hook?a=1 Host=127.0.0.1:" + port
                + " Content-Type=application/json X-A=b body={\"ñ\":1}");
    }

    @Test
    void anotherStatusIsRefusedWithIt() throws Exception {
        int port = startHealthy();
        status.set(503);
        client = client(SHORT, true, system());

        assertThatThrownBy(() -> client.post("http://127.0.0.1:" + port + "/", "text/plain", Map.of(), "x"))
                .isInstanceOfSatisfying(ReceiverClient.RefusedException.class, e -> assertThat(e.status()).isEqualTo(503));
        status.set(302); // redirects are not followed
        assertThatThrownBy(() -> client.post("http://127.0.0.1:" + port + "/", "text/plain", Map.of(), "x"))
                .isInstanceOfSatisfying(ReceiverClient.RefusedException.class, e -> assertThat(e.status()).isEqualTo(302));
    }

    @Test
    void noConnectionIsAConnectException() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = closed.getLocalPort();
        }
        client = client(SHORT, true, system());
        assertThatThrownBy(() -> client.post("http://127.0.0.1:" + port + "/", "text/plain", Map.of(), "x"))
                .isExactlyInstanceOf(ConnectException.class);
    }

    @Test
    void aBodyTrickledAfterTheStatusIsNotWaitedFor() throws Exception {
        stubborn = new StubbornReceiver(StubbornReceiver.Mode.SLOW_BODY);
        // a deadline far longer than the test's patience: returning at all means the body was not waited for
        client = client(Duration.ofSeconds(60), true, system());

        assertThat(client.post("http://127.0.0.1:" + stubborn.port + "/", "application/json", Map.of(), "{}"))
                .isEqualTo(200);

        // and the connection is closed with the megabyte still coming
        await().atMost(Duration.ofSeconds(10)).until(() -> stubborn.cut.size() == 1);
    }

    @Test
    void aReceiverThatNeverAnswersIsCutAtTheDeadline() throws Exception {
        stubborn = new StubbornReceiver(StubbornReceiver.Mode.HUNG);
        client = client(SHORT, true, system());

        long start = System.nanoTime();
        assertThatThrownBy(() -> client.post("http://127.0.0.1:" + stubborn.port + "/", "text/plain", Map.of(), "x"))
                .isExactlyInstanceOf(ReceiverClient.DeadlineExceededException.class);
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(took).as("the deadline, not before").isGreaterThanOrEqualTo(SHORT.toMillis() - 50);
        assertThat(took).as("not long after it (a loaded machine's margin)").isLessThan(SHORT.toMillis() + 9000);
        await().atMost(Duration.ofSeconds(10)).until(() -> stubborn.cut.size() == 1);
        assertThat(stubborn.requests).hasSize(1);
    }

    @Test
    void headersTrickledForeverAreCutAtTheDeadline() throws Exception {
        stubborn = new StubbornReceiver(StubbornReceiver.Mode.SLOW_HEADERS);
        client = client(SHORT, true, system());

        long start = System.nanoTime();
        assertThatThrownBy(() -> client.post("http://127.0.0.1:" + stubborn.port + "/", "text/plain", Map.of(), "x"))
                .isExactlyInstanceOf(ReceiverClient.DeadlineExceededException.class);
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        // a byte every 50 ms resets any per-read timeout: only a deadline on the whole exchange ends it
        assertThat(took).isGreaterThanOrEqualTo(SHORT.toMillis() - 50).isLessThan(SHORT.toMillis() + 9000);
        await().atMost(Duration.ofSeconds(10)).until(() -> stubborn.cut.size() == 1);
    }

    @Test
    void aLookupThatNeverEndsIsCutAtTheDeadline() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        client = client(SHORT, true, host -> {
            try {
                never.await(60, TimeUnit.SECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new UnknownHostException(host);
        });
        try {
            assertThatThrownBy(() -> client.post("https://slow-dns.example/", "text/plain", Map.of(), "x"))
                    .isExactlyInstanceOf(ReceiverClient.DeadlineExceededException.class);
        }
        finally {
            never.countDown();
        }
    }

    /** Every range of the issue, and the rest of the rule, as the URL's literal: refused before any connection. */
    @ParameterizedTest
    @ValueSource(strings = { "169.254.169.254", "10.0.0.1", "192.168.0.1", "192.168.255.254", "172.16.0.1",
            "172.31.255.254", "100.64.0.1", "100.127.255.254", "[fd00::1]", "[fc00::1]", "[fe80::1]", "0.0.0.0",
            "[::]", "[::ffff:10.0.0.1]", "[64:ff9b::a9fe:a9fe]", "[2002:c0a8:0001::1]", "224.0.0.1", "255.255.255.255" })
    void aForbiddenAddressGetsNothing(String host) {
        client = client(SHORT, true, system());
        assertThatThrownBy(() -> client.post("https://" + host + "/latest/meta-data/", "text/plain", Map.of(), "x"))
                .isExactlyInstanceOf(ReceiverClient.ForbiddenAddressException.class);
    }

    @Test
    void theLoopbackOnlyWhereTheOperatorAllowsIt() throws Exception {
        int port = startHealthy();
        client = client(SHORT, false, system());
        assertThatThrownBy(() -> client.post("http://127.0.0.1:" + port + "/", "text/plain", Map.of(), "x"))
                .isExactlyInstanceOf(ReceiverClient.ForbiddenAddressException.class);
        assertThatThrownBy(() -> client.post("http://localhost:" + port + "/", "text/plain", Map.of(), "x"))
                .isExactlyInstanceOf(ReceiverClient.ForbiddenAddressException.class);
        assertThat(seen).isEmpty();
    }

    @Test
    void aNameThatResolvesToAForbiddenAddressAtDeliveryGetsNothing() throws Exception {
        stubborn = new StubbornReceiver(StubbornReceiver.Mode.HUNG);
        client = client(SHORT, false, host -> switch (host) {
            // a public-looking name whose DNS now answers with this machine, or with one private address among others
            case "rebind.example" -> new InetAddress[] { InetAddress.getByName("127.0.0.1") };
            case "mixed.example" -> new InetAddress[] { InetAddress.getByName("203.0.113.9"),
                    InetAddress.getByName("10.1.2.3") };
            case "metadata.example" -> new InetAddress[] { InetAddress.getByName("169.254.169.254") };
            default -> throw new UnknownHostException(host);
        });

        for (String name : List.of("rebind.example", "mixed.example", "metadata.example")) {
            assertThatThrownBy(() -> client.post("https://" + name + ":" + stubborn.port + "/", "text/plain", Map.of(), "x"))
                    .as(name).isExactlyInstanceOf(ReceiverClient.ForbiddenAddressException.class);
        }
        assertThat(stubborn.connections).as("not even a connection").hasValue(0);
    }

    @Test
    void theConnectionGoesToTheAddressCheckedWithoutASecondLookup() throws Exception {
        int port = startHealthy();
        AtomicInteger lookups = new AtomicInteger();
        // the first answer is checked; a second lookup would get another address, where nobody listens
        client = client(SHORT, true, host -> new InetAddress[] {
                InetAddress.getByName(lookups.incrementAndGet() == 1 ? "127.0.0.1" : "127.0.0.2") });

        assertThat(client.post("http://pinned.example:" + port + "/p", "text/plain", Map.of(), "x")).isEqualTo(204);

        assertThat(lookups).hasValue(1);
        // the name stays the request's host (and TLS's name, for https)
        assertThat(seen).containsExactly("POST /p Host=pinned.example:" + port + " Content-Type=text/plain X-A=null body=x");
    }
}
