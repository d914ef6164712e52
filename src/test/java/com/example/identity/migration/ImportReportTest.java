package com.example.identity.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** What the import prints, its exit status and its audit line. */
class ImportReportTest {

    static String printed(ImportReport report) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        report.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    static ImportReport withCounts(boolean dryRun) {
        ImportReport report = new ImportReport(dryRun);
        ImportReport.Counts users = report.counts("usuarios.jsonl");
        users.lines = 5;
        users.created = 3;
        users.updated = 1;
        users.unchanged = 1;
        ImportReport.Counts tokens = report.counts("tokens.jsonl");
        tokens.lines = 2;
        tokens.created = 2;
        return report;
    }

    @Test
    void aCleanImportSaysDoneAndExitsZero() {
        ImportReport report = withCounts(false);
        report.written();
        assertThat(printed(report)).isEqualTo("""
                Importación
                  usuarios.jsonl: 5 líneas: 3 nuevas, 1 actualizadas, 1 sin cambios
                  tokens.jsonl: 2 líneas: 2 nuevas, 0 actualizadas, 0 sin cambios
                Hecho.
                """);
        assertThat(report.succeeded()).isTrue();
        assertThat(report.wasWritten()).isTrue();
        assertThat(report.exitCode()).isZero();
    }

    @Test
    void aCleanDryRunSaysNothingWasWritten() {
        ImportReport report = withCounts(true);
        assertThat(printed(report)).startsWith("Importación (simulación, --dry-run: nada se escribe)\n")
                .endsWith("Sin problemas: la importación real haría exactamente esto.\n");
        assertThat(report.wasWritten()).isFalse();
        assertThat(report.exitCode()).isZero();
    }

    @Test
    void problemsAreListedEachWithFileLineAndFieldAndExitOne() {
        ImportReport report = withCounts(false);
        report.problem("usuarios.jsonl", 12, "correo", "ya usado en la línea 3");
        report.problem("tokens.jsonl", 2, "(línea)", "se esperaba un objeto JSON");
        assertThat(printed(report)).endsWith("""
                PROBLEMAS (2): no se ha escrito nada
                  usuarios.jsonl:12: correo: ya usado en la línea 3
                  tokens.jsonl:2: (línea): se esperaba un objeto JSON
                """);
        assertThat(report.succeeded()).isFalse();
        assertThat(report.exitCode()).isEqualTo(1);
    }

    @Test
    void aFailureWhileWritingExitsThree() {
        ImportReport report = withCounts(false);
        report.failed("la base de datos no responde");
        assertThat(printed(report)).endsWith("ERROR al escribir: la base de datos no responde\n");
        assertThat(report.succeeded()).isFalse();
        assertThat(report.exitCode()).isEqualTo(3);
    }

    @Test
    void theAuditLineSumsUpEachFile() {
        assertThat(withCounts(false).auditSubject()).isEqualTo("usuarios.jsonl: +3 ~1 =1; tokens.jsonl: +2 ~0 =0");
        assertThat(new ImportReport(false).auditSubject()).isEmpty();
    }
}
