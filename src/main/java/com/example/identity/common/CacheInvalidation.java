package com.example.identity.common;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps the in-memory caches of every instance coherent (decisions §13). A feature registers its cache
 * under a topic with two callbacks: evict one key, and flush everything. {@link #evict} evicts on this
 * instance at once and again when the current transaction completes ({@link AfterCommit}) and, on
 * PostgreSQL, sends {@code pg_notify('identity_cache', '<topic>:<key>')} in the same transaction, which
 * PostgreSQL delivers to every listening instance at commit (and never if it rolls back).
 *
 * <p>Each instance listens on one dedicated connection of its own, outside the pool, on a daemon thread
 * polling {@code PGConnection.getNotifications(timeout)}. When that connection breaks, notifications sent
 * meanwhile are lost: the thread reconnects, {@code LISTEN}s again and flushes every cache. The caches'
 * own TTLs stay as a backstop. On H2 (one instance only) nothing is sent or listened to.
 *
 * <p>The same channel carries the messages of {@link #publish}/{@link #subscribe}: what one instance counts
 * that every other instance must count too (the failures of the abuse limits and of the login throttle),
 * tagged with the sending instance so that it does not count its own twice.
 */
@Component
public class CacheInvalidation implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CacheInvalidation.class);
    static final String CHANNEL = "identity_cache";
    static final long POLL_MILLIS = 250;
    static final long RECONNECT_MILLIS = 1000;

    private record Cache(Consumer<String> evictOne, Runnable flushAll) {
    }

    private final Map<String, Cache> caches = new ConcurrentHashMap<>();
    private final JdbcTemplate jdbc;
    private final Environment environment;
    private final boolean postgres;
    private final AtomicLong received = new AtomicLong();
    /** Tags this instance's {@link #publish}ed messages, which its own listener receives too. */
    private final String instance = UUID.randomUUID().toString();
    private volatile boolean running;
    private volatile boolean listening;
    private volatile Thread listener;
    private volatile Connection connection;

    CacheInvalidation(JdbcTemplate jdbc, Environment environment) {
        this.jdbc = jdbc;
        this.environment = environment;
        String url = environment.getProperty("spring.datasource.url", "");
        this.postgres = url.startsWith("jdbc:postgresql:");
    }

    /** Registers a cache: {@code evictOne} gets the key of {@link #evict}; {@code flushAll} empties it. */
    public void register(String topic, Consumer<String> evictOne, Runnable flushAll) {
        if (topic.contains(":")) {
            throw new IllegalArgumentException("a topic has no ':'");
        }
        caches.put(topic, new Cache(evictOne, flushAll));
    }

    /**
     * Evicts {@code key} of {@code topic} here, now and when the current transaction completes, and on
     * every other instance when it commits.
     */
    public void evict(String topic, String key) {
        Cache cache = caches.get(topic);
        if (cache == null) {
            throw new IllegalStateException("no cache registered under " + topic);
        }
        AfterCommit.nowAndAfterCompletion(() -> cache.evictOne().accept(key));
        if (postgres) {
            // joins the caller's transaction (same connection): delivered at commit, dropped on rollback
            jdbc.query("select pg_notify(?, ?)", rs -> null, CHANNEL, topic + ":" + key);
        }
    }

    /**
     * Delivers {@code topic}'s {@link #publish}ed messages from the other instances to {@code onMessage}, on
     * the listening thread (keep it short); this instance's own messages are not delivered back.
     */
    public void subscribe(String topic, Consumer<String> onMessage) {
        String own = instance + "|";
        register(topic, payload -> {
            int bar = payload.indexOf('|');
            if (bar > 0 && !payload.startsWith(own)) {
                onMessage.accept(payload.substring(bar + 1));
            }
        }, () -> {
        });
    }

    /**
     * Sends {@code message} (at most {@value #MAX_MESSAGE} characters) to the subscribers of {@code topic} on
     * every other instance: at once outside a transaction, at commit inside one. On H2 there is no other
     * instance and nothing is sent. A message that cannot be sent (the database is away) is dropped: what it
     * counted still holds on this instance.
     */
    public void publish(String topic, String message) {
        if (!postgres) {
            return;
        }
        if (message.length() > MAX_MESSAGE) {
            throw new IllegalArgumentException("message over " + MAX_MESSAGE + " characters");
        }
        try {
            jdbc.query("select pg_notify(?, ?)", rs -> null, CHANNEL, topic + ":" + instance + "|" + message);
        }
        catch (DataAccessException e) {
            log.debug("Message to other instances dropped ({})", e.getClass().getSimpleName());
        }
    }

    /** pg_notify takes up to 8000 bytes: 1500 characters of up to 4 bytes, plus topic and tag, stay under it. */
    static final int MAX_MESSAGE = 1500;

    /** Whether the listening connection is up (PostgreSQL), for tests and diagnostics. */
    public boolean listening() {
        return listening;
    }

    /** Notifications received from the database since start. */
    public long received() {
        return received.get();
    }

    void dispatch(String payload) {
        int colon = payload.indexOf(':');
        Cache cache = colon < 0 ? null : caches.get(payload.substring(0, colon));
        if (cache == null) {
            log.warn("Cache notification for an unknown cache ignored ({} characters)", payload.length());
            return;
        }
        try {
            cache.evictOne().accept(payload.substring(colon + 1));
        }
        catch (RuntimeException e) {
            // one bad message must not cost the connection (and every cache a flush)
            log.warn("Cache notification for {} not applied ({})", payload.substring(0, colon), e.getClass().getSimpleName());
        }
    }

    private void flushAll() {
        caches.values().forEach(cache -> cache.flushAll().run());
    }

    private void listen() {
        String url = environment.getProperty("spring.datasource.url");
        String user = environment.getProperty("spring.datasource.username");
        String password = environment.getProperty("spring.datasource.password", "");
        while (running) {
            Properties credentials = new Properties();
            if (user != null) {
                credentials.setProperty("user", user);
            }
            credentials.setProperty("password", password);
            credentials.setProperty("ApplicationName", "identity-cache-listener"); // visible in pg_stat_activity
            try (Connection c = DriverManager.getConnection(url, credentials)) {
                connection = c;
                try (Statement statement = c.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                }
                // whatever was notified while this instance was not listening is lost: start clean
                flushAll();
                listening = true;
                PGConnection pg = c.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications((int) POLL_MILLIS);
                    if (notifications != null) {
                        for (PGNotification notification : notifications) {
                            received.incrementAndGet();
                            dispatch(notification.getParameter());
                        }
                    }
                }
            }
            catch (SQLException | RuntimeException e) {
                listening = false;
                if (running) {
                    log.warn("Cache invalidation listener lost its database connection ({}); every cache is "
                            + "flushed after reconnecting", e.getClass().getSimpleName());
                    try {
                        Thread.sleep(RECONNECT_MILLIS);
                    }
                    catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            finally {
                listening = false;
                connection = null;
            }
        }
    }

    @Override
    public void start() {
        if (!postgres || running) {
            return;
        }
        running = true;
        Thread thread = new Thread(this::listen, "cache-invalidation-listener");
        thread.setDaemon(true);
        listener = thread;
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        Connection c = connection;
        if (c != null) {
            try {
                c.close();
            }
            catch (SQLException ignored) {
                // closing anyway
            }
        }
        Thread thread = listener;
        if (thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Listens before the web server takes requests and stops after it. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 2048;
    }
}
