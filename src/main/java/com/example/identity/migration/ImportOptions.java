package com.example.identity.migration;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@code import}: at least one of the three files, and the two switches.
 *
 * @param users JSON lines of users, or null
 * @param tokens JSON lines of API tokens, or null
 * @param clients JSON lines of OAuth applications, or null
 * @param dryRun validate everything and report, write nothing
 * @param update a line that differs from the row already in the database changes that row; without it the
 *     difference is a problem and nothing is written
 */
public record ImportOptions(@Nullable Path users, @Nullable Path tokens, @Nullable Path clients, boolean dryRun,
        boolean update) {

    static final String USAGE = """
            uso: identity-service import [--users=usuarios.jsonl] [--tokens=tokens.jsonl] [--clients=aplicaciones.jsonl] [--dry-run] [--update]
              al menos un fichero; formatos en docs/migration.md""";

    /** The options of the command line after {@code import}; Spring Boot options ({@code --spring.*}, {@code --identity.*}, ...) are left to Spring. */
    static ImportOptions parse(String[] args) {
        Path users = null;
        Path tokens = null;
        Path clients = null;
        boolean dryRun = false;
        boolean update = false;
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--users=")) {
                users = file(arg, users);
            } else if (arg.startsWith("--tokens=")) {
                tokens = file(arg, tokens);
            } else if (arg.startsWith("--clients=")) {
                clients = file(arg, clients);
            } else if (arg.equals("--dry-run")) {
                dryRun = true;
            } else if (arg.equals("--update")) {
                update = true;
            } else if (!isSpringOption(arg)) {
                throw new IllegalArgumentException("argumento desconocido: " + arg);
            }
        }
        if (users == null && tokens == null && clients == null) {
            throw new IllegalArgumentException("falta --users, --tokens o --clients");
        }
        return new ImportOptions(users, tokens, clients, dryRun, update);
    }

    private static boolean isSpringOption(String arg) {
        return arg.startsWith("--spring.") || arg.startsWith("--identity.") || arg.startsWith("--logging.")
                || arg.startsWith("--management.") || arg.startsWith("--server.");
    }

    private static Path file(String arg, @Nullable Path previous) {
        String name = arg.substring(0, arg.indexOf('='));
        if (previous != null) {
            throw new IllegalArgumentException(name + " repetido");
        }
        String value = arg.substring(arg.indexOf('=') + 1);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(name + " sin fichero");
        }
        Path path = Path.of(value);
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new IllegalArgumentException(name + ": no se puede leer el fichero " + value);
        }
        return path;
    }
}
