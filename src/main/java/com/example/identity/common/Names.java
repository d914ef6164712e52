package com.example.identity.common;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The one rule for the names people give things here (a personal token, an OAuth application), shared
 * by {@code /api/tokens/create.php}, the management routes, the dashboard forms and the services behind
 * them: trimmed, 1 to {@value #MAX_LENGTH} characters, and none of the characters that break a page, a
 * log line or a database column.
 *
 * <p>Refused: control characters (C0, DEL, C1: NUL would make PostgreSQL fail the insert), unpaired
 * surrogates (not UTF-8 at all), the Unicode line and paragraph separators, and the bidirectional
 * embedding, override and isolate marks, which make a name read differently from what it is.
 */
public final class Names {

    /** Longest name, after trimming (the {@code varchar(100)} columns of tokens and applications). */
    public static final int MAX_LENGTH = 100;

    /** What is wrong with a name, in the order the checks run. */
    public enum Problem {
        /** Absent, or nothing left after trimming. */
        MISSING,
        /** Longer than {@link #MAX_LENGTH} after trimming. */
        TOO_LONG,
        /** A refused character (see the class comment). */
        INVALID
    }

    private Names() {
    }

    /** What is wrong with {@code name}, or empty when {@link #clean} accepts it. */
    public static Optional<Problem> problemWith(@Nullable String name) {
        String clean = name == null ? "" : name.strip();
        if (clean.isEmpty()) {
            return Optional.of(Problem.MISSING);
        }
        if (clean.length() > MAX_LENGTH) {
            return Optional.of(Problem.TOO_LONG);
        }
        if (clean.codePoints().anyMatch(Names::isRefused)) {
            return Optional.of(Problem.INVALID);
        }
        return Optional.empty();
    }

    /**
     * The name as it is stored: trimmed.
     *
     * @throws IllegalArgumentException when {@link #problemWith} finds a problem (callers check first and
     *     answer in their own words; this is the last line of defence)
     */
    public static String clean(@Nullable String name) {
        problemWith(name).ifPresent(problem -> {
            throw new IllegalArgumentException("name refused: " + problem);
        });
        return name.strip();
    }

    static boolean isRefused(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.SURROGATE, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> true;
            default -> isBidiControl(codePoint);
        };
    }

    /** LRM, RLM, ALM, the embeddings and overrides (U+202A-U+202E) and the isolates (U+2066-U+2069). */
    private static boolean isBidiControl(int c) {
        return c == 0x200E || c == 0x200F || c == 0x061C || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
    }
}
