package com.example.identity.migration;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What an import found and did: per file, the lines read and how many rows are new, changed and unchanged;
 * every problem with its file, line, field and reason. Problems mean nothing was written.
 */
public final class ImportReport {

    /** One problem of one line: {@code usuarios.jsonl:12: correo: ya usado en la línea 3}. */
    public record Problem(String file, long line, String field, String reason) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + field + ": " + reason;
        }
    }

    /** The counts of one file. */
    public static final class Counts {
        private final String file;
        long lines;
        long created;
        long updated;
        long unchanged;

        Counts(String file) {
            this.file = file;
        }

        public String file() {
            return file;
        }

        public long lines() {
            return lines;
        }

        public long created() {
            return created;
        }

        public long updated() {
            return updated;
        }

        public long unchanged() {
            return unchanged;
        }

        String summary() {
            return lines + " líneas: " + created + " nuevas, " + updated + " actualizadas, " + unchanged + " sin cambios";
        }
    }

    private final boolean dryRun;
    private final List<Counts> counts = new ArrayList<>();
    private final List<Problem> problems = new ArrayList<>();
    private boolean written;
    private String failure;

    ImportReport(boolean dryRun) {
        this.dryRun = dryRun;
    }

    Counts counts(String file) {
        Counts c = new Counts(file);
        counts.add(c);
        return c;
    }

    void problem(String file, long line, String field, String reason) {
        problems.add(new Problem(file, line, field, reason));
    }

    void written() {
        this.written = true;
    }

    void failed(String failure) {
        this.failure = failure;
    }

    public boolean dryRun() {
        return dryRun;
    }

    public List<Counts> counts() {
        return Collections.unmodifiableList(counts);
    }

    public List<Problem> problems() {
        return Collections.unmodifiableList(problems);
    }

    /** Whether rows were written (false for a dry run and whenever there were problems). */
    public boolean wasWritten() {
        return written;
    }

    /** No problems and no failure while writing. */
    public boolean succeeded() {
        return problems.isEmpty() && failure == null;
    }

    /** The exit status of the command: 0 done (or a clean dry run), 1 problems in the input, 3 a failure while writing. */
    int exitCode() {
        return failure != null ? 3 : problems.isEmpty() ? 0 : 1;
    }

    /** A short line for the audit trail (at most 200 characters). */
    String auditSubject() {
        StringBuilder s = new StringBuilder();
        for (Counts c : counts) {
            if (!s.isEmpty()) {
                s.append("; ");
            }
            s.append(c.file).append(": +").append(c.created).append(" ~").append(c.updated).append(" =").append(c.unchanged);
        }
        return s.toString();
    }

    void print(PrintStream out) {
        out.println(dryRun ? "Importación (simulación, --dry-run: nada se escribe)" : "Importación");
        for (Counts c : counts) {
            out.println("  " + c.file + ": " + c.summary());
        }
        if (!problems.isEmpty()) {
            out.println("PROBLEMAS (" + problems.size() + "): no se ha escrito nada");
            problems.forEach(p -> out.println("  " + p));
        } else if (failure != null) {
            out.println("ERROR al escribir: " + failure);
        } else if (dryRun) {
            out.println("Sin problemas: la importación real haría exactamente esto.");
        } else {
            out.println("Hecho.");
        }
    }
}
