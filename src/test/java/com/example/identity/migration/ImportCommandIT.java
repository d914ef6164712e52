package com.example.identity.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import com.example.identity.IdentityApplication;

/**
 * The import as an operator runs it: {@code java -jar identity-service.jar import ...} is
 * {@code IdentityApplication.main}, which hands the arguments to {@link ImportCommand#run}; here that is
 * called in this JVM (the same {@code SpringApplication.run} with the same arguments, no web server),
 * against its own in-memory H2 database, or against PostgreSQL when {@code SPRING_DATASOURCE_URL} points
 * there. The jar itself runs in {@code .ci/import-bench}.
 */
class ImportCommandIT {

    private final boolean postgres = System.getenv("SPRING_DATASOURCE_URL") != null
            && System.getenv("SPRING_DATASOURCE_URL").startsWith("jdbc:postgresql:");
    private final String url = postgres ? System.getenv("SPRING_DATASOURCE_URL")
            : "jdbc:h2:mem:import-command-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url,
            postgres ? System.getenv("SPRING_DATASOURCE_USERNAME") : "sa",
            postgres ? System.getenv("SPRING_DATASOURCE_PASSWORD") : ""));

    private record Run(int status, String output) {
    }

    private Run run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (!postgres) {
            all.add("--spring.datasource.url=" + url);
        }
        var out = new ByteArrayOutputStream();
        int status = ImportCommand.run(IdentityApplication.class, all.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theCommandMigratesImportsPrintsTheReportAndExitsWithItsStatus() throws Exception {
        if (!postgres) {
            firstRunOnAnEmptyDatabase();
        }
        var old = new OldSystemExport(jdbc);

        Run first = run("import", "--users=" + old.users(), "--tokens=" + old.tokens(), "--clients=" + old.clients());

        assertThat(first.status()).as(first.output()).isZero();
        assertThat(first.output()).isEqualTo("""
                Importación
                  users: 3 líneas: 3 nuevas, 0 actualizadas, 0 sin cambios
                  clients: 1 líneas: 1 nuevas, 0 actualizadas, 0 sin cambios
                  tokens: 3 líneas: 3 nuevas, 0 actualizadas, 0 sin cambios
                Hecho.
                """);
        assertThat(jdbc.queryForObject("select primer_nombre from users where id = ?", String.class, old.devId))
                .isEqualTo("Diego Viejo");
        assertThat(jdbc.queryForObject("select actor from audit_events where event = 'IMPORT_COMPLETED' order by id desc limit 1",
                String.class)).isEqualTo("os:" + ImportCommand.operator());

        Run again = run("import", "--users=" + old.users(), "--tokens=" + old.tokens(), "--clients=" + old.clients());
        assertThat(again.status()).isZero();
        assertThat(again.output()).contains("  users: 3 líneas: 0 nuevas, 0 actualizadas, 3 sin cambios\n");

        Path bad = write("{\"token\":\"" + old.gameToken + "\",\"user_id\":" + old.devId
                + ",\"name\":\"x\",\"created_at\":\"2023-01-02T03:04:05Z\",\"expires_at\":null,\"revoked\":true}");
        Run conflict = run("import", "--tokens=" + bad);
        assertThat(conflict.status()).isEqualTo(1);
        assertThat(conflict.output()).endsWith("PROBLEMAS (1): no se ha escrito nada\n  tokens:1: name,revoked: el token "
                + old.gameToken.substring(0, 8) + "… ya existe en la base de datos con otros valores; --update lo actualiza\n");
    }

    @Test
    void aWrongCommandLineExitsWith2BeforeStartingAnything() {
        Run none = run("import");
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.output()).startsWith("falta --users, --tokens o --clients\nuso: identity-service import ");
        Run unknown = run("import", "--user=a.jsonl");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.output()).startsWith("argumento desconocido: --user=a.jsonl\n");
        Run missing = run("import", "--users=/nonexistent/users.jsonl");
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.output()).startsWith("--users: no se puede leer el fichero /nonexistent/users.jsonl\n");
    }

    /**
     * A first run on an empty database: Flyway creates the schema, and no first admin or demo account is
     * made (they would take ids and e-mail addresses of the import); a dry run writes nothing.
     */
    private void firstRunOnAnEmptyDatabase() throws Exception {
        Run dry = run("import", "--users=" + write("{\"id\":1,\"primer_nombre\":\"X\",\"correo\":\"x@old.example\","
                + "\"rol\":\"user\",\"enabled\":true,\"password_hash\":\"$2y$04$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234\"}"),
                "--dry-run");
        assertThat(dry.status()).as(dry.output()).isZero();
        assertThat(dry.output()).startsWith("Importación (simulación, --dry-run: nada se escribe)\n  users: 1 líneas: 1 nuevas");
        assertThat(jdbc.queryForObject("select count(*) from users", Long.class)).isZero();
    }

    private static Path write(String content) throws Exception {
        Path file = Files.createTempFile("import", ".jsonl");
        Files.writeString(file, content + "\n", StandardCharsets.UTF_8);
        return file;
    }
}
