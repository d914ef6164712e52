package com.example.identity.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How an import file is read: line by line, each bad line and each bad field reported with its number. */
class JsonLinesTest {

    @TempDir
    Path dir;

    final ImportReport report = new ImportReport(true);
    final List<JsonLines.Line> lines = new ArrayList<>();

    long read(byte[] content) throws IOException {
        Path file = dir.resolve("usuarios.jsonl");
        Files.write(file, content);
        return JsonLines.read(file, "usuarios.jsonl", report, lines::add);
    }

    long read(String content) throws IOException {
        return read(content.getBytes(StandardCharsets.UTF_8));
    }

    JsonLines.Line one(String json) throws IOException {
        read(json);
        assertThat(lines).hasSize(1);
        return lines.get(0);
    }

    List<String> problems() {
        return report.problems().stream().map(ImportReport.Problem::toString).toList();
    }

    @Test
    void blankLinesAByteOrderMarkAndWindowsLineEndsAreTolerated() throws IOException {
        byte[] bom = { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF };
        byte[] body = "{\"id\":1}\r\n\r\n   \n{\"id\":2}\n".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[bom.length + body.length];
        System.arraycopy(bom, 0, all, 0, bom.length);
        System.arraycopy(body, 0, all, bom.length, body.length);

        assertThat(read(all)).isEqualTo(2);
        assertThat(lines).extracting(line -> line.number).containsExactly(1L, 4L);
        assertThat(report.problems()).isEmpty();
    }

    @Test
    void everyBadLineIsReportedWithItsNumberAndTheOthersAreStillRead() throws IOException {
        byte[] notUtf8 = { '{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}', '\n' };
        byte[] rest = "{\"id\":1}\n[1,2]\n{\"id\": \n\"texto\"\n{\"id\":1,\"id\":2}\n{\"id\":3}\n".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[notUtf8.length + rest.length];
        System.arraycopy(notUtf8, 0, all, 0, notUtf8.length);
        System.arraycopy(rest, 0, all, notUtf8.length, rest.length);

        assertThat(read(all)).isEqualTo(2);
        assertThat(lines).extracting(line -> line.number).containsExactly(2L, 7L);
        assertThat(report.problems()).extracting(ImportReport.Problem::line).containsExactly(1L, 3L, 4L, 5L, 6L);
        assertThat(report.problems()).allSatisfy(p -> assertThat(p.field()).isEqualTo("(línea)"));
        assertThat(problems().get(0)).isEqualTo("usuarios.jsonl:1: (línea): no es UTF-8 válido");
        assertThat(problems().get(1)).isEqualTo("usuarios.jsonl:3: (línea): se esperaba un objeto JSON");
        assertThat(problems().get(2)).startsWith("usuarios.jsonl:4: (línea): JSON inválido: ");
        assertThat(problems().get(4)).as("a repeated field").startsWith("usuarios.jsonl:6: (línea): JSON inválido: ");
    }

    @Test
    void theReasonOfInvalidJsonDoesNotEchoTheInput() throws IOException {
        read("{\"password\": s3cr3tPassw0rd}\n");
        assertThat(report.problems()).singleElement().satisfies(p -> assertThat(p.reason()).doesNotContain("s3cr3t"));
    }

    @Test
    void unknownFieldsAreProblemsSoATypoIsNotIgnored() throws IOException {
        JsonLines.Line line = one("{\"correo\":\"a@b.es\",\"coreo\":\"x\"}");
        line.onlyFields(Set.of("correo"));
        assertThat(line.bad()).isTrue();
        assertThat(problems()).containsExactly("usuarios.jsonl:1: coreo: campo desconocido");
    }

    @Test
    void textIsTrimmedAndMustBeNonEmptyShortAndWithoutControlCharacters() throws IOException {
        JsonLines.Line line = one("{\"a\":\"  Ana  \",\"b\":\"   \",\"c\":\"abcdef\",\"d\":\"a\\u0007b\",\"e\":5}");
        assertThat(line.text("a", 5)).isEqualTo("Ana");
        assertThat(line.bad()).isFalse();
        assertThat(line.text("b", 5)).isNull();
        assertThat(line.text("c", 5)).isNull();
        assertThat(line.text("d", 5)).isNull();
        assertThat(line.text("e", 5)).isNull();
        assertThat(line.text("f", 5)).isNull();
        assertThat(problems()).containsExactly("usuarios.jsonl:1: b: vacío", "usuarios.jsonl:1: c: más de 5 caracteres",
                "usuarios.jsonl:1: d: contiene caracteres de control", "usuarios.jsonl:1: e: debe ser una cadena",
                "usuarios.jsonl:1: f: falta");
    }

    @Test
    void anOptionalStringMayBeMissingOrNull() throws IOException {
        JsonLines.Line line = one("{\"a\":null}");
        assertThat(line.string("a", false)).isNull();
        assertThat(line.string("b", false)).isNull();
        assertThat(line.has("a")).isFalse();
        assertThat(line.bad()).isFalse();
    }

    @Test
    void idsArePositiveIntegers() throws IOException {
        JsonLines.Line line = one("{\"a\":7,\"b\":0,\"c\":-1,\"d\":1.5,\"e\":\"7\",\"f\":99999999999999999999}");
        assertThat(line.positiveLong("a")).isEqualTo(7L);
        for (String field : new String[] { "b", "c", "d", "e", "f" }) {
            assertThat(line.positiveLong(field)).as(field).isNull();
        }
        assertThat(line.positiveLong("g")).isNull();
        assertThat(report.problems()).extracting(ImportReport.Problem::reason).containsExactly(
                "debe ser un entero positivo", "debe ser un entero positivo", "debe ser un entero positivo",
                "debe ser un entero positivo", "debe ser un entero positivo", "falta");
    }

    @Test
    void booleansAreTrueOrFalseAndAnOptionalOneTakesItsDefault() throws IOException {
        JsonLines.Line line = one("{\"a\":true,\"b\":\"true\",\"c\":null}");
        assertThat(line.bool("a")).isTrue();
        assertThat(line.bool("c", true)).isTrue();
        assertThat(line.bool("z", false)).isFalse();
        assertThat(line.bad()).isFalse();
        assertThat(line.bool("b")).isNull();
        assertThat(problems()).containsExactly("usuarios.jsonl:1: b: debe ser true o false");
    }

    @Test
    void timesWithAnOffsetOrWithoutOneAsUtcKeptToTheMicrosecond() throws IOException {
        JsonLines.Line line = one("{\"a\":\"2024-05-01T10:00:00Z\",\"b\":\"2024-05-01T12:00:00+02:00\","
                + "\"c\":\"2024-05-01 10:00:00\",\"d\":\"2024-05-01T10:00:00.123456789Z\",\"e\":\"ayer\"}");
        Instant ten = Instant.parse("2024-05-01T10:00:00Z");
        assertThat(line.time("a", true)).isEqualTo(ten);
        assertThat(line.time("b", true)).isEqualTo(ten);
        assertThat(line.time("c", true)).isEqualTo(ten);
        assertThat(line.time("d", true)).isEqualTo(Instant.parse("2024-05-01T10:00:00.123456Z"));
        assertThat(line.bad()).isFalse();
        assertThat(line.time("e", true)).isNull();
        assertThat(line.time("f", false)).isNull();
        assertThat(problems()).containsExactly(
                "usuarios.jsonl:1: e: fecha inválida (ISO-8601, p. ej. 2024-05-01T10:00:00Z)");
    }
}
