package com.example.identity.migration;

import java.io.PrintStream;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * {@code java -jar identity-service.jar import --users=... --tokens=... --clients=... [--dry-run] [--update]}:
 * the application with the same configuration (datasource, {@code identity.*}) and the same Flyway
 * migrations, but no HTTP port opened, then {@link LegacyImport}, the report on standard output, and an
 * exit status: 0 done, 1 problems in the input (nothing written), 2 a wrong command line, 3 a failure while
 * writing.
 * <p>
 * No port: {@code server.port=-1} (Spring Boot's documented "web application context without an HTTP
 * endpoint") and the same for the management port. Not {@code WebApplicationType.NONE}: the service's
 * security filter chains need Spring Security's servlet configuration ({@code HttpSecurity}), so a
 * non-web context would need every chain made conditional; with the servlet context and no connector, the
 * import runs with exactly the beans of the service, and nobody can reach it.
 */
public final class ImportCommand {

    private ImportCommand() {
    }

    /** Whether the command line asks for this command rather than the service. */
    public static boolean isImport(String[] args) {
        return args.length > 0 && "import".equals(args[0]);
    }

    /**
     * Runs the import in this JVM and returns the exit status (the caller exits with it).
     *
     * @param applicationClass the application's {@code @SpringBootApplication} class
     */
    public static int run(Class<?> applicationClass, String[] args, PrintStream out) {
        ImportOptions options;
        try {
            options = ImportOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            out.println(e.getMessage());
            out.println(ImportOptions.USAGE);
            return 2;
        }
        var application = new SpringApplication(applicationClass);
        application.setWebApplicationType(WebApplicationType.SERVLET);
        application.setRegisterShutdownHook(false);
        // quiet by default: the report is the output (--logging.level.root=INFO shows the start)
        application.setDefaultProperties(Map.of(
                "logging.level.root", "WARN",
                "spring.main.banner-mode", "off",
                "spring.main.log-startup-info", "false"));
        application.addInitializers(context -> {
            var sources = context.getEnvironment().getPropertySources();
            // no HTTP port, whatever the configuration says
            sources.addFirst(new MapPropertySource("import-command", Map.of(
                    "server.port", "-1",
                    "management.server.port", "-1")));
            // the import uses one connection at a time: the service's pool (application.yml) would only take
            // connections from a shared PostgreSQL; the environment and the command line may still say otherwise
            if (sources.contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
                sources.addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new MapPropertySource(
                        "import-command-defaults", Map.of("spring.datasource.hikari.maximum-pool-size", "2")));
            }
        });
        try (ConfigurableApplicationContext context = application.run(args)) {
            ImportReport report = context.getBean(LegacyImport.class).run(options, operator());
            report.print(out);
            return report.exitCode();
        }
        catch (RuntimeException e) {
            // the database unreachable, a migration failing, an unreadable file: nothing of this import
            // was written (the log above says more)
            out.println("ERROR: " + org.springframework.core.NestedExceptionUtils.getMostSpecificCause(e).getMessage());
            return 3;
        }
    }

    /** The OS user running the import, for the audit trail (with the one who used sudo, when it was sudo). */
    static String operator() {
        String user = System.getProperty("user.name", "?");
        String sudo = System.getenv("SUDO_USER");
        return sudo == null || sudo.isBlank() || sudo.equals(user) ? user : user + " (sudo de " + sudo + ")";
    }
}
