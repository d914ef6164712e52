package com.example.identity.migration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a JSON-lines file: UTF-8, one object a line, blank lines ignored, a byte order mark at the start
 * tolerated. Every line is checked on its own, so that one report names every bad line at once.
 */
final class JsonLines {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private JsonLines() {
    }

    /** One object of one line, with the helpers that read its fields and report what is wrong with them. */
    static final class Line {
        final String file;
        final long number;
        private final JsonNode node;
        private final ImportReport report;
        private boolean bad;

        Line(String file, long number, JsonNode node, ImportReport report) {
            this.file = file;
            this.number = number;
            this.node = node;
            this.report = report;
        }

        void problem(String field, String reason) {
            bad = true;
            report.problem(file, number, field, reason);
        }

        /** Whether any field of this line had a problem. */
        boolean bad() {
            return bad;
        }

        /** Refuses fields the format does not have (a typo would otherwise be silently ignored). */
        void onlyFields(Set<String> allowed) {
            for (Iterator<String> names = node.propertyNames().iterator(); names.hasNext();) {
                String name = names.next();
                if (!allowed.contains(name)) {
                    problem(name, "campo desconocido");
                }
            }
        }

        boolean has(String field) {
            JsonNode value = node.get(field);
            return value != null && !value.isNull();
        }

        @Nullable
        String string(String field, boolean required) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                if (required) {
                    problem(field, "falta");
                }
                return null;
            }
            if (!value.isString()) {
                problem(field, "debe ser una cadena");
                return null;
            }
            return value.stringValue();
        }

        /** A text of 1 to {@code max} characters after trimming, without control characters. */
        @Nullable
        String text(String field, int max) {
            String value = string(field, true);
            if (value == null) {
                return null;
            }
            String clean = value.strip();
            if (clean.isEmpty()) {
                problem(field, "vacío");
                return null;
            }
            if (clean.length() > max) {
                problem(field, "más de " + max + " caracteres");
                return null;
            }
            if (clean.chars().anyMatch(Character::isISOControl)) {
                problem(field, "contiene caracteres de control");
                return null;
            }
            return clean;
        }

        @Nullable
        Long positiveLong(String field) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                problem(field, "falta");
                return null;
            }
            if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 1) {
                problem(field, "debe ser un entero positivo");
                return null;
            }
            return value.longValue();
        }

        @Nullable
        /** An optional boolean: {@code absent} when the field is missing or null. */
        Boolean bool(String field, boolean absent) {
            JsonNode value = node.get(field);
            return value == null || value.isNull() ? Boolean.valueOf(absent) : bool(field);
        }

        Boolean bool(String field) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                problem(field, "falta");
                return null;
            }
            if (!value.isBoolean()) {
                problem(field, "debe ser true o false");
                return null;
            }
            return value.booleanValue();
        }

        /**
         * A time: ISO-8601 with an offset ({@code 2024-05-01T10:00:00Z}, {@code ...+02:00}) or
         * {@code 2024-05-01 10:00:00} taken as UTC; kept to the microsecond, as both databases store it.
         */
        @Nullable
        Instant time(String field, boolean required) {
            String value = string(field, required);
            if (value == null) {
                return null;
            }
            try {
                return OffsetDateTime.parse(value).toInstant().truncatedTo(ChronoUnit.MICROS);
            }
            catch (DateTimeParseException notOffset) {
                try {
                    return LocalDateTime.parse(value.replace(' ', 'T')).toInstant(ZoneOffset.UTC)
                            .truncatedTo(ChronoUnit.MICROS);
                }
                catch (DateTimeParseException notLocal) {
                    problem(field, "fecha inválida (ISO-8601, p. ej. 2024-05-01T10:00:00Z)");
                    return null;
                }
            }
        }
    }

    /**
     * Calls {@code each} with every non-blank line that is a JSON object; lines that are not valid UTF-8,
     * not JSON or not an object are reported as problems of field {@code (línea)}.
     */
    static long read(Path path, String file, ImportReport report, Consumer<Line> each) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        int start = 0;
        if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            start = 3;
        }
        long number = 0;
        long objects = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            number++;
            int stop = end > start && bytes[end - 1] == '\r' ? end - 1 : end;
            String text;
            try {
                text = decoder.decode(ByteBuffer.wrap(bytes, start, stop - start)).toString();
            }
            catch (CharacterCodingException e) {
                report.problem(file, number, "(línea)", "no es UTF-8 válido");
                start = end + 1;
                continue;
            }
            start = end + 1;
            if (text.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(text);
            }
            catch (JacksonException e) {
                report.problem(file, number, "(línea)", "JSON inválido: " + shortReason(e));
                continue;
            }
            if (node == null || !node.isObject()) {
                report.problem(file, number, "(línea)", "se esperaba un objeto JSON");
                continue;
            }
            objects++;
            each.accept(new Line(file, number, node, report));
        }
        return objects;
    }

    /** Jackson's first message line, without the echo of the input (which may hold a secret). */
    private static String shortReason(JacksonException e) {
        String message = e.getOriginalMessage();
        if (message == null) {
            return "no se puede leer";
        }
        int quote = message.indexOf('\'');
        String head = quote > 0 ? message.substring(0, quote).strip() : message;
        return head.length() > 120 ? head.substring(0, 120) : head;
    }

}
