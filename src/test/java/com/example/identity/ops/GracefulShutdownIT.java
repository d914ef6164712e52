package com.example.identity.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.example.identity.support.ApiAssertions;
import com.example.identity.support.WebClient;

/**
 * SIGTERM under load, on the packaged jar started as its own process: readiness goes down before the web
 * server stops taking requests, every request sent before the signal completes, only requests after it
 * are refused, and the process exits within 30 s.
 */
class GracefulShutdownIT {

    record Result(long start, long end, int status, String failure) {
        boolean ok() {
            return failure == null && status < 400;
        }
    }

    @Test
    void sigtermLetsRequestsInFlightFinishAndExitsWithin30Seconds() throws Exception {
        Path jar;
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            jar = files.filter(p -> p.getFileName().toString().matches("identity-service-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no packaged jar in target/ (mvn verify packages it first)"));
        }
        int port = freePort();
        Path log = Path.of("target", "graceful-shutdown-it.log");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process server = new ProcessBuilder(java, "-Xmx256m", "-jar", jar.toString(), "--server.port=" + port,
                "--management.server.port=0", "--spring.datasource.url=jdbc:h2:mem:shutdown;DB_CLOSE_DELAY=-1",
                "--identity.demo-data=true", "--identity.login.delay-base=0s",
                "--identity.rate-limit.failures-per-minute=100000",
                "--logging.level.org.springframework.boot.availability=DEBUG",
                "--logging.level.org.springframework.boot.tomcat=INFO",
                "--logging.level.org.springframework.boot.web=INFO")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            var probe = new WebClient(port);
            await("ready within 180 s").atMost(Duration.ofSeconds(180)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        assertThat(server.isAlive()).as("the service started").isTrue();
                        return ready(probe);
                    });
            var session = new WebClient(port);
            assertThat(session.login("dev@example.com", "dev-demo-password").statusCode()).isEqualTo(302);
            String csrf = session.csrfFrom("/dashboard/developer.php");
            String token = ApiAssertions.json(session.postForm("/api/tokens/create.php", Map.of("name", "load", "_csrf", csrf)))
                    .get("token").asString();

            var results = new ConcurrentLinkedQueue<Result>();
            var stop = new AtomicBoolean();
            ExecutorService workers = Executors.newFixedThreadPool(6);
            List<Future<?>> running = new ArrayList<>();
            long loadDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int w = 0; w < 6; w++) {
                int worker = w;
                running.add(workers.submit(() -> {
                    var web = new WebClient(port);
                    for (int i = 0; i < 20000 && !stop.get() && System.nanoTime() < loadDeadline; i++) {
                        long start = System.nanoTime();
                        try {
                            int status;
                            if ((i + worker) % 8 == 0) {
                                // a slow one: a login costs an Argon2id hash. Two requests, each its own result:
                                // the form may be fetched before SIGTERM and the POST sent after it
                                var fresh = new WebClient(port);
                                var form = fresh.get("/login/");
                                results.add(new Result(start, System.nanoTime(), form.statusCode(), null));
                                if (form.statusCode() != 200) {
                                    continue;
                                }
                                start = System.nanoTime();
                                status = fresh.postForm("/login/", Map.of("username", "dev@example.com", "password",
                                        "dev-demo-password", "_csrf", WebClient.csrfOf(form.body()))).statusCode();
                            }
                            else {
                                status = web.get("/api/userinfo.php", "Authorization", "Bearer " + token).statusCode();
                            }
                            results.add(new Result(start, System.nanoTime(), status, null));
                        }
                        catch (RuntimeException | AssertionError e) {
                            results.add(new Result(start, System.nanoTime(), 0, String.valueOf(e)));
                        }
                    }
                    return null;
                }));
            }
            // traffic under way: well over the 20 answers asserted below, however busy the machine
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> results.stream().filter(Result::ok).count() >= 40);
            long sigterm = System.nanoTime();
            server.destroy(); // SIGTERM
            boolean exited = server.waitFor(30, TimeUnit.SECONDS);
            long exitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sigterm);
            stop.set(true);
            for (Future<?> worker : running) {
                worker.get(60, TimeUnit.SECONDS);
            }
            workers.shutdown();
            assertThat(exited).as("exited within 30 s of SIGTERM").isTrue();

            List<Result> all = new ArrayList<>(results);
            List<Result> before = all.stream().filter(r -> r.start() < sigterm).toList();
            List<Result> inFlight = before.stream().filter(r -> r.end() > sigterm).toList();
            List<Result> failed = all.stream().filter(r -> !r.ok()).toList();
            System.out.printf("graceful shutdown: %d requests, %d sent before SIGTERM (%d in flight at it), %d refused after it, exit %d ms%n",
                    all.size(), before.size(), inFlight.size(), failed.size(), exitMillis);
            assertThat(before).hasSizeGreaterThan(20);
            assertThat(before).as("every request sent before SIGTERM completed").allMatch(Result::ok);
            assertThat(inFlight).as("requests in flight at SIGTERM finished").isNotEmpty();
            assertThat(failed).as("only requests after SIGTERM are refused").allMatch(r -> r.start() >= sigterm);

            String output = Files.readString(log, StandardCharsets.UTF_8);
            int readinessDown = output.indexOf("REFUSING_TRAFFIC");
            int graceful = output.indexOf("Commencing graceful shutdown");
            int complete = output.indexOf("Graceful shutdown complete");
            assertThat(readinessDown).as("readiness went down").isPositive();
            assertThat(graceful).as("graceful shutdown of the web server").isPositive();
            assertThat(readinessDown).as("readiness down before the web server stops taking requests").isLessThan(graceful);
            assertThat(complete).as("requests finished before the exit").isGreaterThan(graceful);
        }
        finally {
            if (server.isAlive()) {
                server.destroyForcibly();
            }
        }
    }

    private static boolean ready(WebClient probe) {
        try {
            return probe.get("/readyz").statusCode() == 200;
        }
        catch (RuntimeException notYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
