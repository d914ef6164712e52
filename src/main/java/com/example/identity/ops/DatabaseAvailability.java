package com.example.identity.ops;

import java.net.ConnectException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Whether this instance can reach its database. It turns "down" when a connection cannot be had (see
 * {@link DatabaseFailureWatch}) or a request fails for a lost connection, and back "up" on its own:
 * while down, a probe asks the pool for a valid connection every {@value #PROBE_MILLIS} ms. While down,
 * {@link DatabaseOutageFilter} answers 503 at once instead of letting every request wait for the pool's
 * timeout.
 * <p>
 * Per instance on purpose: it is this instance's view of its own connection to the shared database, not
 * shared state; several instances each find out for themselves (issue 15).
 */
public class DatabaseAvailability implements AutoCloseable {

    static final long PROBE_MILLIS = 500;

    private static final Logger log = LoggerFactory.getLogger(DatabaseAvailability.class);

    private volatile DataSource dataSource;
    private volatile boolean down;
    private final ScheduledExecutorService probes = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "database-probe");
        thread.setDaemon(true);
        return thread;
    });
    private ScheduledFuture<?> probe;

    void watch(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Known to be unreachable (cheap: one volatile read, on every request). */
    public boolean isDown() {
        return down;
    }

    /** A failure seen somewhere: marks the database down when it says the connection is lost. */
    void report(Throwable failure) {
        if (isConnectionFailure(failure)) {
            markDown(failure);
        }
    }

    /**
     * Whether the database is down, asking it when not known to be: for the rare answers that are about
     * to be a 500, to tell a database that went away (a dead pooled connection fails on its statement,
     * not on the pool) from a genuine internal error.
     */
    boolean confirmDown() {
        if (down) {
            return true;
        }
        if (!reachable()) {
            markDown(null);
            return true;
        }
        return false;
    }

    private synchronized void markDown(Throwable failure) {
        if (down) {
            return;
        }
        down = true;
        log.warn("Database unreachable ({}): answering 503 until it is back",
                failure == null ? "no valid connection" : rootMessage(failure));
        probe = probes.scheduleWithFixedDelay(this::probe, PROBE_MILLIS, PROBE_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void probe() {
        if (reachable()) {
            synchronized (this) {
                down = false;
                if (probe != null) {
                    probe.cancel(false);
                    probe = null;
                }
            }
            log.info("Database reachable again");
        }
    }

    private boolean reachable() {
        DataSource source = dataSource;
        if (source == null) {
            return true;
        }
        try (Connection connection = source.getConnection()) {
            return connection.isValid(1);
        }
        catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /**
     * A failure to reach the database, as opposed to a bad statement: the pool had no connection, the
     * driver could not connect, or the server ended the connection (SQLSTATE class 08, 57P01-57P03).
     */
    static boolean isConnectionFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CannotCreateTransactionException || t instanceof CannotGetJdbcConnectionException
                    || t instanceof DataAccessResourceFailureException || t instanceof SQLTransientConnectionException
                    || t instanceof SQLNonTransientConnectionException || t instanceof ConnectException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P0"))) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }

    @Override
    public void close() {
        probes.shutdownNow();
    }
}
