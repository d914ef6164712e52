package com.example.identity.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL cluster of the test's own, made with Debian's {@code initdb} and run with {@code pg_ctl}
 * on a free port of 127.0.0.1 in a temporary directory, so a test can stop and start it (a database
 * outage) without touching the machine's server. As root, the binaries run as the {@code postgres} user
 * ({@code initdb} refuses root).
 * <p>
 * Without the binaries ({@code /usr/lib/postgresql/15/bin}, or {@code IDENTITY_PG_BIN}) the test is skipped
 * with a message on a developer's machine, and fails under CI ({@code CI=true} or
 * {@code IDENTITY_TEST_DATABASE=postgresql}, as {@code .ci/run} sets).
 */
public final class PrivatePostgres implements AutoCloseable {

    private final Path bin;
    private final Path dir;
    private final int port;
    private final boolean asPostgresUser;

    private PrivatePostgres(Path bin, Path dir, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /** Makes and starts a cluster with one database {@code identity}; skips or fails when it cannot. */
    public static PrivatePostgres startOrSkip() throws Exception {
        Path bin = Path.of(System.getenv().getOrDefault("IDENTITY_PG_BIN", "/usr/lib/postgresql/15/bin"));
        if (!Files.isExecutable(bin.resolve("initdb")) || !Files.isExecutable(bin.resolve("pg_ctl"))) {
            String message = "PostgreSQL server binaries not found in " + bin
                    + " (apt-get install postgresql-15, or set IDENTITY_PG_BIN): the database outage test needs its own cluster";
            if ("true".equalsIgnoreCase(System.getenv("CI")) || "postgresql".equalsIgnoreCase(System.getenv("IDENTITY_TEST_DATABASE"))) {
                throw new AssertionError(message);
            }
            Assumptions.abort(message);
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("identity-pg-");
        if (root) {
            run(List.of("chown", "postgres", dir.toString()), 30);
        }
        var postgres = new PrivatePostgres(bin, dir, freePort(), root);
        try {
            postgres.runAs(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U",
                    "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"), 120);
            postgres.start();
            try (var connection = DriverManager.getConnection(postgres.jdbcUrl("postgres"), "postgres", "")) {
                connection.createStatement().execute("create database identity");
            }
            return postgres;
        }
        catch (Exception | AssertionError e) {
            postgres.close();
            throw e;
        }
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public void start() throws Exception {
        runAs(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                dir.resolve("server.log").toString(), "-w", "-t", "60", "-o",
                "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50",
                "start"), 90);
    }

    /** A fast shutdown: connections are ended, nothing committed is lost. */
    public void stop() throws Exception {
        runAs(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast", "-w",
                "-t", "60", "stop"), 90);
    }

    public boolean accepts() {
        try (var connection = DriverManager.getConnection(jdbcUrl("postgres"), "postgres", "")) {
            return connection.isValid(1);
        }
        catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (accepts()) {
                stop();
            }
        }
        finally {
            run(List.of("rm", "-rf", dir.toString()), 60);
        }
    }

    private void runAs(List<String> command, int timeoutSeconds) throws Exception {
        List<String> full = new ArrayList<>();
        if (asPostgresUser) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        run(full, timeoutSeconds);
    }

    private static void run(List<String> command, int timeoutSeconds) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(command + " failed (" + process.exitValue() + "):\n"
                    + new String(output, StandardCharsets.UTF_8));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
