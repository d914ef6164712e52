package com.example.identity.outbound;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;

/**
 * The one HTTP client that POSTs to applications' receivers: webhooks (webhooks/) and back-channel logout tokens
 * (backchannel/), on the outbox's threads. Each {@link #post}:
 * <ol>
 * <li>resolves the URL's host (an IP literal is read as it is), within the deadline;</li>
 * <li>refuses, before any connection, when any address the name resolves to is one a receiver may not be
 * ({@link ReceiverAddresses#refused}: private, loopback, link-local, shared, reserved...):
 * {@link ForbiddenAddressException};</li>
 * <li>connects to exactly the address it checked, never resolving the name again (a second lookup could answer
 * differently: DNS rebinding); TLS still checks the certificate against the name and sends it as SNI;</li>
 * <li>sends the request ({@code Connection: close}, no redirect followed, no retry, no cookies, no proxy) and reads the
 * status line and headers, never the body: the connection is closed as soon as the status is known, so a receiver
 * that answers and then trickles its body is done with at once;</li>
 * <li>cuts the connection when {@code identity.outbound.timeout} (10 s) has passed since the start, wherever the
 * exchange is: {@link DeadlineExceededException}.</li>
 * </ol>
 * A 2xx status is returned; another one is a {@link RefusedException} that carries it. Nothing of the request or the
 * answer is logged.
 */
@Component
public class ReceiverClient implements DisposableBean {

    /** Resolves a host name: the system's resolver, or a test's. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final Duration timeout;
    private final boolean allowLoopback;
    private final Resolver resolver;
    private final CloseableHttpClient http;
    private final ScheduledExecutorService deadlines;
    private final ThreadPoolExecutor lookups;

    @Autowired
    public ReceiverClient(OutboundSettings settings, ObjectProvider<Resolver> resolver) {
        this(settings, resolver.getIfAvailable(() -> InetAddress::getAllByName));
    }

    ReceiverClient(OutboundSettings settings, Resolver resolver) {
        this.timeout = settings.timeout();
        this.allowLoopback = settings.allowLoopback();
        this.resolver = resolver;
        Timeout whole = Timeout.of(timeout);
        this.http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        // every target carries the address checked here; a lookup by the client itself is a bug
                        .setDnsResolver(new NoLookups())
                        .setTlsSocketStrategy(DefaultClientTlsStrategy.createSystemDefault())
                        .setConnectionFactory(ManagedHttpClientConnectionFactory.builder()
                                // an answer's status line and headers are bounded, whatever the receiver sends
                                .http1Config(Http1Config.custom().setMaxLineLength(8192).setMaxHeaderCount(100).build())
                                .build())
                        .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(whole)
                                .setSocketTimeout(whole).build())
                        .setMaxConnTotal(200).setMaxConnPerRoute(200)
                        .build())
                .setConnectionReuseStrategy((request, response, context) -> false)
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .setUserAgent("identity-service")
                .build();
        this.deadlines = new ScheduledThreadPoolExecutor(1, daemons("receiver-deadline-"));
        ((ScheduledThreadPoolExecutor) deadlines).setRemoveOnCancelPolicy(true);
        this.lookups = new ThreadPoolExecutor(4, 4, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(1000),
                daemons("receiver-lookup-"));
        lookups.allowCoreThreadTimeOut(true);
    }

    private static CustomizableThreadFactory daemons(String prefix) {
        CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix);
        threads.setDaemon(true);
        return threads;
    }

    /** The longest a {@link #post} takes: the outbox's lease must cover it. */
    public Duration longestExchange() {
        return timeout;
    }

    /**
     * POSTs {@code body} (UTF-8) as {@code contentType} with {@code headers} to {@code url}, an http(s) URL.
     *
     * @return the answer's 2xx status
     * @throws RefusedException another status
     * @throws ForbiddenAddressException the host is, or resolves to, an address a receiver may not have: nothing sent
     * @throws DeadlineExceededException no status within {@code identity.outbound.timeout}
     * @throws IOException no connection ({@link ConnectException}), an unknown host, a TLS failure, a broken answer
     */
    public int post(String url, String contentType, Map<String, String> headers, String body) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        URI uri = URI.create(url);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new IOException("not an http(s) URL");
        }
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        InetAddress address = checked(host, deadline);
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        HttpPost post = new HttpPost(uri);
        headers.forEach(post::setHeader);
        post.setHeader("Content-Type", contentType);
        post.setEntity(new ByteArrayEntity(body.getBytes(StandardCharsets.UTF_8), null));
        Timeout left = Timeout.ofMilliseconds(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        post.setConfig(RequestConfig.custom().setConnectionRequestTimeout(left).setResponseTimeout(left).build());
        AtomicBoolean cut = new AtomicBoolean();
        ScheduledFuture<?> watchdog = deadlines.schedule(() -> {
            cut.set(true);
            post.cancel(); // closes the connection wherever the exchange is: connecting, TLS, sending, waiting
        }, deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        int status;
        try {
            ClassicHttpResponse response = http.executeOpen(new HttpHost(scheme, address, host, port), post, null);
            status = response.getCode();
            // the body is not read: closed at once, never drained
            CloseableHttpResponse.adapt(response).close(CloseMode.IMMEDIATE);
        }
        catch (InterruptedIOException e) {
            throw new DeadlineExceededException(); // cut by the watchdog, or a connect or read timeout at the deadline
        }
        catch (ConnectException e) {
            throw cut.get() ? new DeadlineExceededException() : new ConnectException("connection refused");
        }
        catch (IOException e) {
            if (cut.get()) {
                throw new DeadlineExceededException();
            }
            throw e;
        }
        finally {
            watchdog.cancel(false);
        }
        if (status / 100 != 2) {
            throw new RefusedException(status);
        }
        return status;
    }

    /** The one address to connect to for {@code host}, once every address it resolves to has been checked. */
    private InetAddress checked(String host, long deadline) throws IOException {
        InetAddress[] addresses;
        Future<InetAddress[]> lookup;
        try {
            lookup = lookups.submit(() -> resolver.resolve(host));
        }
        catch (RejectedExecutionException e) {
            throw new DeadlineExceededException(); // a thousand lookups waiting: the resolver is stuck
        }
        try {
            addresses = lookup.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException e) {
            lookup.cancel(true);
            throw new DeadlineExceededException();
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new UnknownHostException("lookup failed");
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
        if (addresses == null || addresses.length == 0) {
            throw new UnknownHostException("no address");
        }
        for (InetAddress address : addresses) {
            if (ReceiverAddresses.refused(address, allowLoopback)) {
                throw new ForbiddenAddressException();
            }
        }
        return addresses[0];
    }

    @Override
    public void destroy() {
        http.close(CloseMode.IMMEDIATE);
        deadlines.shutdownNow();
        lookups.shutdownNow();
    }

    /** The receiver answered, but not with 2xx. */
    public static final class RefusedException extends IOException {

        private final int status;

        RefusedException(int status) {
            super("HTTP " + status);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /** The receiver's host is, or resolves to, an address no receiver may have: nothing was sent. */
    public static final class ForbiddenAddressException extends IOException {
        ForbiddenAddressException() {
            super("a local or private address");
        }
    }

    /** No answer within {@code identity.outbound.timeout}: the connection was cut. */
    public static final class DeadlineExceededException extends IOException {
        DeadlineExceededException() {
            super("no answer in time");
        }
    }

    /** The client's own resolver: never used, since every request names the address checked above. */
    private static final class NoLookups implements org.apache.hc.client5.http.DnsResolver {

        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            throw new UnknownHostException("outbound requests connect to a checked address only");
        }

        @Override
        public String resolveCanonicalHostname(String host) throws UnknownHostException {
            throw new UnknownHostException("outbound requests connect to a checked address only");
        }
    }
}
