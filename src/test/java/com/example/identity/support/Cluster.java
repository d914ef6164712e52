package com.example.identity.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import com.example.identity.IdentityApplication;

/**
 * Several instances of the whole application in one JVM, each with its own port, caches and threads,
 * sharing one database (decisions §13): the test database of the run (PostgreSQL when
 * {@code SPRING_DATASOURCE_URL} says so), a fresh PostgreSQL database made for the cluster, or a
 * shared in-memory H2 database. Started concurrently, as a load balancer's pool is (only Spring Boot's
 * JVM-wide logging set-up is taken one start at a time).
 */
public final class Cluster implements AutoCloseable {

    private final List<ConfigurableApplicationContext> nodes;
    private final Runnable cleanup;

    private Cluster(List<ConfigurableApplicationContext> nodes, Runnable cleanup) {
        this.nodes = nodes;
        this.cleanup = cleanup;
    }

    /** True when the integration tests run on PostgreSQL (the only database several instances may share). */
    public static boolean onPostgres() {
        String url = System.getenv("SPRING_DATASOURCE_URL");
        return url != null && url.startsWith("jdbc:postgresql:");
    }

    /** {@code count} instances on the run's database (an in-memory H2 of their own on H2). */
    public static Cluster onSharedDatabase(int count, String... extraArgs) {
        List<String> args = baseArgs(extraArgs);
        if (!onPostgres()) {
            args.add("--spring.datasource.url=jdbc:h2:mem:cluster-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        }
        return new Cluster(startConcurrently(count, args), () -> { });
    }

    /** {@code count} instances started together on a PostgreSQL database created empty for them. */
    public static Cluster onFreshPostgres(int count, String... extraArgs) {
        String url = System.getenv("SPRING_DATASOURCE_URL");
        String database = "identity_cluster_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String server = url.substring(0, url.lastIndexOf('/') + 1);
        admin(server, "create database " + database);
        List<String> args = baseArgs(extraArgs);
        args.add("--spring.datasource.url=" + server + database);
        try {
            return new Cluster(startConcurrently(count, args),
                    () -> admin(server, "drop database if exists " + database + " with (force)"));
        }
        catch (RuntimeException e) {
            admin(server, "drop database if exists " + database + " with (force)");
            throw e;
        }
    }

    private static void admin(String server, String sql) {
        String user = System.getenv().getOrDefault("SPRING_DATASOURCE_USERNAME", "postgres");
        String password = System.getenv().getOrDefault("SPRING_DATASOURCE_PASSWORD", "");
        try (Connection connection = DriverManager.getConnection(server + "postgres", user, password)) {
            connection.createStatement().execute(sql);
        }
        catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static List<String> baseArgs(String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.profiles.active=test",
                "--management.server.port=0", "--spring.datasource.hikari.maximum-pool-size=4"));
        args.addAll(List.of(extraArgs));
        return args;
    }

    private static List<ConfigurableApplicationContext> startConcurrently(int count, List<String> args) {
        ExecutorService starters = Executors.newFixedThreadPool(count);
        try {
            List<CompletableFuture<ConfigurableApplicationContext>> starting = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                // Spring Boot's logging system is one per JVM and not safe to initialise from two starts at
                // once: each start waits until the previous one has its logging set up (context prepared),
                // then they run concurrently (migrations, first accounts, first key, web servers).
                var prepared = new java.util.concurrent.CountDownLatch(1);
                starting.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return new SpringApplicationBuilder(IdentityApplication.class)
                                .listeners(event -> {
                                    if (event instanceof org.springframework.boot.context.event.ApplicationPreparedEvent) {
                                        prepared.countDown();
                                    }
                                })
                                .run(args.toArray(String[]::new));
                    }
                    finally {
                        prepared.countDown();
                    }
                }, starters));
                try {
                    prepared.await(120, java.util.concurrent.TimeUnit.SECONDS);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            List<ConfigurableApplicationContext> started = new ArrayList<>();
            RuntimeException failure = null;
            for (var future : starting) {
                try {
                    started.add(future.join());
                }
                catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
            if (failure != null) {
                started.forEach(ConfigurableApplicationContext::close);
                throw failure;
            }
            return started;
        }
        finally {
            starters.shutdown();
        }
    }

    public ConfigurableApplicationContext node(int i) {
        return nodes.get(i);
    }

    public int size() {
        return nodes.size();
    }

    public int port(int i) {
        return ((WebServerApplicationContext) nodes.get(i)).getWebServer().getPort();
    }

    public <T> T bean(int i, Class<T> type) {
        return nodes.get(i).getBean(type);
    }

    @Override
    public void close() {
        nodes.forEach(ConfigurableApplicationContext::close);
        cleanup.run();
    }
}
