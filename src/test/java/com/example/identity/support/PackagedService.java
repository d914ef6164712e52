package com.example.identity.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The packaged jar ({@code target/identity-service-*.jar}, made by {@code package} before the integration tests)
 * started as an operator starts it, {@code java -jar} in a process of its own, with its own class path: what the
 * tests' class path has and the jar lacks shows here. Settings as command-line properties; the output goes to a
 * log file under {@code target/}, read back in a failure's message.
 */
public final class PackagedService implements AutoCloseable {

    private final Process process;
    private final Path log;
    public final int port;

    private PackagedService(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts the jar on {@code port} with an in-memory H2 database of its own named {@code name} and the demo data,
     * plus {@code properties} ({@code --name=value} each), and waits (at most 3 minutes: a busy CI machine) until
     * {@code /readyz} answers 200. Fails with the log's end when the process exits first.
     */
    public static PackagedService start(String name, int port, List<String> properties) {
        Path jar;
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            jar = files.filter(p -> p.getFileName().toString().matches("identity-service-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no packaged jar in target/ (mvn verify packages it first)"));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path log = Path.of("target", name + ".log");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-jar", jar.toString(),
                "--server.port=" + port, "--management.server.port=0",
                "--spring.datasource.url=jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1",
                "--spring.datasource.username=sa", "--spring.datasource.password=",
                "--identity.demo-data=true", "--identity.mail.directory=target/mail"));
        command.addAll(properties);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        PackagedService service = new PackagedService(process, log, port);
        try {
            var probe = new WebClient(port);
            await("the packaged service ready within 3 minutes").atMost(Duration.ofMinutes(3)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        assertThat(process.isAlive()).as("the packaged service is running; its log ends:%n%s",
                                service.logTail()).isTrue();
                        return ready(probe);
                    });
        }
        catch (RuntimeException | AssertionError e) {
            service.close();
            throw e;
        }
        return service;
    }

    private static boolean ready(WebClient probe) {
        try {
            return probe.get("/readyz").statusCode() == 200;
        }
        catch (RuntimeException notYet) {
            return false;
        }
    }

    /** The last 40 lines of the service's output. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        }
        catch (IOException | UncheckedIOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
